import AuthCore
import Testing

@testable import ShellKit

@Suite("help topics")
struct HelpTopicsTests {
  func text(_ words: [String], surface: Surfaces = .oneShot) -> String? {
    try? HelpTopics.render(words, surface: surface).get()
  }

  func problem(_ words: [String]) -> String? {
    if case .failure(let problem) = HelpTopics.render(words, surface: .oneShot) { return problem.fullMessage }
    return nil
  }

  @Test func errorsListsEveryCatalogueCodeWithItsExitStatus() throws {
    let listing = try #require(text(["errors"]))
    for code in ErrorCode.catalogue {
      let row = listing.split(separator: "\n").first {
        $0.split(separator: " ").first.map(String.init) == code.rawValue
      }
      let line = try #require(row, "missing \(code)")
      #expect(
        line.split(separator: " ").dropFirst().first.map(String.init) == String(ExitStatus.forError(AuthError(code))))
    }
    #expect(listing.contains(try Regex(#"\n  network_unreachable +3 "#)))
    #expect(listing.contains(try Regex(#"\n  session_expired +4 "#)))
  }

  @Test func aNearMissIsAnErrorNotAShorterCommand() {
    #expect(text(["reset", "confrim"]) == nil)
    #expect(problem(["reset", "confrim"]) == "no help for 'reset confrim'; did you mean 'reset confirm'?")
    #expect(problem(["nosuch"]) == "no help for 'nosuch'; 'help' lists the commands, 'help errors' the error codes")
    #expect(text(["reset", "confirm"])?.hasPrefix("Usage: authsh reset confirm") == true)
  }

  @Test func aliasesShowTheirCommand() {
    for alias in ["signin", "sign-in"] {
      #expect(text([alias])?.hasPrefix("Usage: authsh login") == true)
      #expect(CommandTable.match([alias, "a@b.co"])?.spec.name == "login")
    }
  }

  @Test func shellOnlyCommandsSaySo() {
    #expect(text(["use"])?.contains("Works only in the interactive shell and in .auth scripts") == true)
    #expect(text(["history"])?.contains("Works only in the interactive shell") == true)
    #expect(text(["login"])?.contains("Works only") == false)
  }

  @Test func emulatorHelpListsTheFaultPresetsAndTheFaultsJSON() throws {
    let help = try #require(text(["emulator"]))
    for preset in [
      "html502", "truncated_json", "drop", "rate_limit", "server_error", "/emulator/v1/faults", "\"faults\":[",
    ] {
      #expect(help.contains(preset), "missing \(preset)")
    }
  }

  @Test func choiceSuggestionsAreNearMissesOnly() {
    #expect(Suggest.choice(for: "tcsh", among: ["bash", "zsh", "fish"]) == nil)
    #expect(Suggest.choice(for: "fihs", among: ["bash", "zsh", "fish"]) == "fish")
    #expect(Suggest.choice(for: "supbase", among: ["supabase", "firebase"]) == "supabase")
  }

  /// `help user` and `help user link` list the subcommands; `user` alone or a misspelt subcommand
  /// is a usage error naming them (it used to say "unknown command 'user'; did you mean 'user'?").
  @Test func aCommandGroupListsItsSubcommands() throws {
    let user = try #require(text(["user"]))
    #expect(user.hasPrefix("'user' commands"))
    #expect(
      user.contains("  user show [EMAIL…]") && user.contains("  user link recovery EMAIL")
        && user.contains("  user signout [EMAIL]"))
    let link = try #require(text(["user", "link"]))
    #expect(link.split(separator: "\n").filter { $0.hasPrefix("  user link ") }.count == 3)

    func usage(_ line: String) -> String? {
      let words = line.split(separator: " ").enumerated().map { Word(text: String($1), start: $0, end: $0 + 1) }
      if case .failure(let problem) = InvocationParser.parse(words, surface: .oneShot) { return problem.fullMessage }
      return nil
    }
    #expect(
      usage("user")?.hasPrefix(
        "'user' needs a subcommand: show, list, link recovery, link confirm, link invite, confirm") == true)
    #expect(usage("user shw a@example.com")?.hasSuffix("did you mean 'show'?") == true)
    #expect(usage("user link")?.hasPrefix("'user' needs") == false)
    #expect(usage("user link") == "'user link' needs a subcommand: recovery, confirm, invite")
    #expect(usage("user show a@example.com") == nil)
    #expect(usage("reset ada@example.com") == nil, "a command that also heads a group still runs")
    #expect(usage("emulator --port 0") == nil)
  }
}
