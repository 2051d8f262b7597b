import AuthCore
import JSONKit
import Testing

@testable import ShellKit

@Suite("Completer: candidates from the command table")
struct CompleterTests {
  let source = CompletionSource(
    profiles: { ["mobile", "staging"] }, emails: { ["ada@example.com", "Bob@Example.com"] },
    listDirectory: { path in
      switch path {
      case ".": return [("notes.txt", false), ("smoke", true), ("smoke.auth", false), ("signup.auth", false)]
      case "smoke/": return [("login.auth", false), ("reset.auth", false), ("README.md", false)]
      default: return nil
      }
    })

  func values(_ line: String, surface: Surfaces = .repl) -> [String] {
    Completer.complete(linePrefix: line, surface: surface, source: source).candidates.map(\.value)
  }

  @Test func commandNamesArePrefixMatched() {
    #expect(values("lo") == ["login", "logout"])
    #expect(values("re") == ["reset", "refresh", "retry"])
    #expect(values("") == CommandTable.firstWords(on: .repl))
  }

  @Test func commandNamesDependOnTheSurface() {
    #expect(values("", surface: .repl).contains("retry"))
    #expect(!values("", surface: .repl).contains("completion"))
    #expect(values("", surface: .oneShot).contains("completion"))
    #expect(!values("", surface: .oneShot).contains("retry"))
    #expect(!values("", surface: .oneShot).contains("provider"))
  }

  @Test func subcommandsAndArguments() {
    #expect(values("reset ") == ["confirm", "ada@example.com", "Bob@Example.com"])
    #expect(values("reset co") == ["confirm"])
    #expect(values("reset confirm ") == [])
  }

  @Test func flagsPerCommandIncludingOutputFlags() {
    #expect(values("login --pa") == ["--password", "--password-env"])
    #expect(values("logout --") == ["--scope", "--json", "--verbose", "--show-tokens", "--timeout", "--color"])
    #expect(values("whoami --claims --") == ["--json", "--verbose", "--show-tokens", "--timeout", "--color"])
    #expect(values("use --") == [])
  }

  @Test func oneShotOnlyFlagsStayOutOfTheShell() {
    #expect(!values("login --").contains("--password-stdin"))
    #expect(values("login --", surface: .oneShot).contains("--password-stdin"))
    #expect(values("login --pro", surface: .oneShot) == ["--profile", "--provider"])
  }

  @Test func flagsAfterAllArgumentsWhenNothingIsTyped() {
    #expect(values("whoami ").first == "--claims")
    #expect(values("status ").contains("--json"))
  }

  @Test func choicesOfFlagsAndArguments() {
    #expect(values("logout --scope ") == ["local", "global", "others"])
    #expect(values("logout --scope g") == ["global"])
    #expect(values("logout --scope=o") == ["--scope=others"])
    #expect(values("provider ") == ["supabase", "firebase"])
    #expect(values("provider f") == ["firebase"])
    #expect(values("whoami --color ") == ["auto", "always", "never"])
    #expect(values("completion ", surface: .oneShot) == ["bash", "zsh", "fish"])
    #expect(values("--provider ", surface: .oneShot) == ["supabase", "firebase"])
    #expect(values("--provider firebase lo", surface: .oneShot) == ["login", "logout"])
  }

  @Test func profilesAndEmails() {
    #expect(values("use ") == ["mobile", "staging"])
    #expect(values("use st") == ["staging"])
    #expect(values("login ") == ["ada@example.com", "Bob@Example.com"])
    #expect(values("login bob") == ["Bob@Example.com"])
    #expect(values("reset confirm 123456 --email a") == ["ada@example.com"])
    #expect(values("whoami --profile ", surface: .oneShot) == ["mobile", "staging"])
  }

  @Test func authFilesForSourceAndRun() {
    #expect(values("source ") == ["smoke/", "smoke.auth", "signup.auth"])
    #expect(values("source sm") == ["smoke/", "smoke.auth"])
    #expect(values("source smoke/") == ["smoke/login.auth", "smoke/reset.auth"])
    #expect(values("run smoke.auth s", surface: .oneShot) == ["smoke/", "smoke.auth", "signup.auth"])
    #expect(values("run --report-junit n", surface: .oneShot) == ["notes.txt"])
  }

  @Test func directoriesWantNoTrailingSpace() {
    let candidates = Completer.complete(linePrefix: "source smoke", surface: .repl, source: source).candidates
    #expect(candidates.first { $0.value == "smoke/" }?.isComplete == false)
    #expect(candidates.first { $0.value == "smoke.auth" }?.isComplete == true)
  }

  @Test func helpCompletesCommandNames() {
    #expect(values("help lo") == ["login", "logout"])
    #expect(values("help reset ") == ["confirm"])
  }

  @Test func descriptionsComeFromTheTable() {
    let candidates = Completer.complete(linePrefix: "log", surface: .repl, source: source).candidates
    #expect(candidates.first?.description == "Sign in with e-mail and password")
  }

  @Test func unknownCommandsAndTakenFlagsGiveNothingMore() {
    #expect(values("frob ") == [])
    #expect(!values("login --remember --").contains("--remember"))
    #expect(values("echo -- --") == [])
  }

  @Test func quotedAndUnterminatedWords() {
    #expect(values("login \"ada") == ["ada@example.com"])
    #expect(values("login 'ad") == ["ada@example.com"])
    let split = Completer.splitForCompletion("login --name 'Ada L")
    #expect(split.before == ["login", "--name"])
    #expect(split.current == "Ada L")
    #expect(split.start == 13)
  }

  @Test func wordStartIsWhereTheReplacementBegins() {
    #expect(Completer.complete(linePrefix: "logout --sc", surface: .repl, source: source).wordStart == 7)
    #expect(Completer.complete(linePrefix: "logout ", surface: .repl, source: source).wordStart == 7)
  }
}

/// Command groups without a command of their own complete their next words.
@Suite struct CommandGroupCompletionTests {
  func values(_ before: [String], _ current: String = "") -> [String] {
    let source = CompletionSource(profiles: { [] }, emails: { [] }, listDirectory: { _ in nil })
    return Completer.candidates(before: before, current: current, surface: .oneShot, source: source).map(\.value)
  }

  @Test func userAndUserLinkCompleteTheirSubcommands() {
    #expect(
      values(["user"]) == [
        "show", "list", "link", "confirm", "resend", "disable", "enable", "set-password", "set-email", "update",
        "create",
        "delete", "signout", "mfa", "history", "export", "import",
      ])
    #expect(values(["user"], "s") == ["show", "set-password", "set-email", "signout"])
    #expect(values(["user", "link"]) == ["recovery", "confirm", "invite"])
    #expect(values(["user", "mfa"]) == ["reset"])
    #expect(values(["reset"]).contains("confirm"))
    #expect(values(["help", "user"]).contains("link"))
  }

  /// `{{` completes the names in scope: the previous result's fields, the builtins, `env.NAME`.
  @Test func anOpenHoleCompletesTheNamesInScope() {
    let previous: JSON = [
      "ok": true, "inbox": ["kind": "password_reset", "link": "http://x/verify?token=t"], "user": ["email": "a@b.co"],
    ]
    let scoped = CompletionSource(
      listDirectory: { _ in nil },
      templateNames: { CompletionSource.paths(of: previous) + CompletionSource.builtinTemplateNames + ["env.HOME"] })
    let values = { (line: String) in
      Completer.complete(linePrefix: line, surface: .repl, source: scoped).candidates.map(\.value)
    }
    #expect(values("reset confirm {{in") == ["{{inbox.kind}}", "{{inbox.link}}"])
    #expect(values("login {{u") == ["{{user.email}}", "{{uuid}}"])
    #expect(values("echo x{{env.H") == ["x{{env.HOME}}"])
    #expect(values("echo {{uuid}} ") != values("echo {{"), "a closed hole completes as usual")
    #expect(CompletionSource.paths(of: previous) == ["ok", "inbox.kind", "inbox.link", "user.email"])
  }
}
