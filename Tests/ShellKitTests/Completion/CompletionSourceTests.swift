import AuthCore
import Foundation
import Testing

@testable import ShellKit

@Suite("Completion values from a shell context")
struct CompletionSourceTests {
  @Test func emailsUsedInTheSessionAreOffered() async {
    let shell = ReplHarness(
      ["login ada@example.com"], accounts: ["ada@example.com": "correct-horse"], passwords: ["correct-horse"])
    _ = await shell.run()
    let candidates = Completer.complete(
      linePrefix: "reset ", surface: .repl, source: CompletionSource(context: shell.context))
    #expect(candidates.candidates.map(\.value) == ["confirm", "ada@example.com"])
  }

  @Test func profilesComeFromTheConfigFile() {
    let config = ConfigResolver.ConfigFileContents(
      text: "[profiles.staging]\nprovider = \"supabase\"\n\n[profiles.mobile]\nprovider = \"firebase\"\n", mode: 0o600)
    let context = ShellContext(
      resolver: ConfigResolver(
        environment: [:], paths: Paths(environment: ["HOME": "/nonexistent"]), configFile: config),
      makeProvider: { _, _ in FakeProvider() }, sessionStore: InMemorySessionStore())
    let values = Completer.complete(linePrefix: "use ", surface: .repl, source: CompletionSource(context: context))
      .candidates
    #expect(values.map(\.value) == ["mobile", "staging"])
  }
}
