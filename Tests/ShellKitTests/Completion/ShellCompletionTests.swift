import AuthCore
import Foundation
import Testing

@testable import ShellKit

@Suite("Shell completion callback and scripts")
struct ShellCompletionTests {
  let source = CompletionSource(profiles: { ["staging"] }, emails: { [] }, listDirectory: { _ in nil })

  func values(_ words: [String], _ cword: Int) -> [String] {
    ShellCompletion.candidates(words: words, cword: cword, source: source).map(\.value)
  }

  @Test func wordsIncludeTheProgramName() {
    #expect(values(["authsh", "lo"], 1) == ["login", "logout"])
    #expect(values(["authsh"], 1).contains("completion"))
    #expect(values(["authsh", "logout", "--scope", ""], 3) == ["local", "global", "others"])
    #expect(values(["authsh", "logout", "--scope"], 3) == ["local", "global", "others"])
    #expect(values(["authsh", "--profile", "st"], 2) == ["staging"])
    #expect(values(["authsh", "login", "--pass"], 2) == ["--password", "--password-env", "--password-stdin"])
    #expect(values([], 0) == [])
  }

  @Test func flagEqualsCompletesAtAnyPositionTheFirstWordIncluded() {
    #expect(values(["authsh", "--profile="], 1) == ["--profile=staging"])
    #expect(values(["authsh", "--color=a"], 1) == ["--color=auto", "--color=always"])
    #expect(values(["authsh", "--provider=f"], 1) == ["--provider=firebase"])
    #expect(values(["authsh", "--json", "--profile=s"], 2) == ["--profile=staging"])
    #expect(values(["authsh", "whoami", "--profile="], 2) == ["--profile=staging"])
    #expect(values(["authsh", "--nosuch="], 1) == [])
  }

  @Test func groupsAreDescribedAsGroups() {
    let described = ShellCompletion.candidates(words: ["authsh", ""], cword: 1, source: source)
    let mfa = described.first { $0.value == "mfa" }?.description ?? ""
    let user = described.first { $0.value == "user" }?.description ?? ""
    #expect(mfa == CommandTable.groupSummaries["mfa"])
    #expect(user == CommandTable.groupSummaries["user"])
    let link = ShellCompletion.candidates(words: ["authsh", "user", "li"], cword: 2, source: source)
    #expect(link.first { $0.value == "link" }?.description == CommandTable.groupSummaries["user link"])
  }

  @Test func wordsAfterTheCursorAreIgnored() {
    #expect(values(["authsh", "lo", "ada@example.com"], 1) == ["login", "logout"])
  }

  @Test func outputLinesCarryDescriptionsAfterATab() throws {
    let context = ShellContext(
      resolver: ConfigResolver(environment: [:], paths: Paths(environment: ["HOME": "/nonexistent"]), configFile: nil),
      makeProvider: { _, _ in fatalError("completion never makes a provider") }, sessionStore: InMemorySessionStore())
    let text = try #require(ShellCompletion.output(arguments: ["bash", "1", "--", "authsh", "logo"], context: context))
    #expect(text == "logout\tSign out and forget the session\n")
    #expect(ShellCompletion.output(arguments: ["tcsh", "1", "--", "authsh"], context: context) == nil)
    #expect(ShellCompletion.output(arguments: ["bash", "x", "--", "authsh"], context: context) == nil)
    #expect(ShellCompletion.output(arguments: ["bash", "1", "--", "authsh", "zzz"], context: context) == "")
  }

  @Test func scriptsExistForThreeShells() throws {
    for shell in CompletionScripts.shells {
      let script = try #require(CompletionScripts.script(for: shell))
      #expect(script.contains("__complete \(shell)") || script.contains("__complete fish"))
      #expect(script.contains("Commands: signup login reset whoami"))
    }
    #expect(CompletionScripts.script(for: "tcsh") == nil)
    #expect(try #require(CompletionScripts.script(for: "zsh")).hasPrefix("#compdef authsh\n"))
  }

  /// The committed files equal what `authsh completion SHELL` prints (regenerate with
  /// `scripts/install-completions.sh --generate`).
  @Test(arguments: CompletionScripts.shells)
  func committedScriptsHaveNotDrifted(shell: String) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let path = try #require(CompletionScripts.committedPath(for: shell))
    let committed = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    #expect(
      committed == CompletionScripts.script(for: shell),
      "\(path) drifted: run scripts/install-completions.sh --generate")
  }
}
