import AuthCore
import Foundation
import JSONKit
import ShellKit
import Testing

@testable import AuthScript

@Suite struct SecretScanTests {
  func scan(_ text: String) -> Set<String> {
    Set(SecretScan.values(in: [SourceFile(name: "t.auth", text: text)]))
  }

  @Test func secretFlagsSecretStatementsAndTheLetsTheyRead() {
    let found = scan(
      """
      secret pw = "known-secret-1"
      let plain = "not-a-secret"
      let used = "let-read-by-flag"
      login a@example.com --password "known-pw-123"
      login a@example.com --password={{used}}
      provider supabase --key anon-key-literal
      login a@example.com --password pre{{x}}post-part
      echo --name visible-name
      """)
    for secret in ["known-secret-1", "let-read-by-flag", "known-pw-123", "anon-key-literal", "pre", "post-part"] {
      #expect(found.contains(secret), "\(secret)")
    }
    for visible in ["not-a-secret", "visible-name", "a@example.com", "{{used}}"] {
      #expect(!found.contains(visible), "\(visible)")
    }
  }

  @Test func linesThatDoNotParseOrSplitAreStillCovered() {
    let found = scan(
      """
      login a@example.com --password "unterminated-pw
      secret bad="glued-secret-2"
      secret pw = "extra-word-3" trailing
      """)
    #expect(found.contains("unterminated-pw"))
    #expect(found.contains("glued-secret-2"))
    #expect(found.contains("extra-word-3"))
  }

  @Test func includedFilesAreScannedToo() {
    let loader = ScriptLoader(readFile: { path in
      guard path == "/s/lib.auth" else { throw CocoaError(.fileNoSuchFile) }
      return "login a@example.com --password included-pw-4 --bogus\n"
    })
    let (program, _) = loader.load(SourceFile(name: "main.auth", path: "/s/main.auth", text: "include lib.auth\n"))
    #expect(program.sources.map(\.name) == ["main.auth", "lib.auth"])
    #expect(program.literalSecrets.contains("included-pw-4"))
  }
}

/// Check errors are rendered before anything runs; the secrets written in the script must be
/// masked there as they are at run time, in every channel and report.
@Suite struct CheckErrorSecretTests {
  static let script = """
    secret token = "known-secret-77"
    test "t"
    login a@example.com --password "known-pw-123" --bogus
    logn a@example.com --password "known-pw-123"
    secret other = "known-secret-77" extra
    """

  @Test func checkErrorsMaskLiteralPasswordsEverywhere() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var harness = RunHarness(Self.script)
    harness.options.reportJUnit = directory.appendingPathComponent("junit.xml").path
    harness.options.reportTAP = directory.appendingPathComponent("tap.txt").path
    harness.options.reportJSON = directory.appendingPathComponent("report.json").path
    let outcome = await harness.run()
    #expect(outcome.exit == 2)
    #expect(outcome.err.contains(" 3 | login a@example.com --password \"***\" --bogus\n"))
    #expect(outcome.err.contains(" 4 | logn a@example.com --password \"***\"\n"))
    // A `secret` line that does not parse: every word after the name may be part of the value.
    #expect(outcome.err.contains(" 5 | secret other = \"***\" ***\n"))
    let reports = try ["junit.xml", "tap.txt", "report.json"].map {
      try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
    }
    #expect(reports[0].contains("--password &quot;***&quot; --bogus"))
    for text in [outcome.out, outcome.err] + reports {
      #expect(!text.contains("known-pw-123"))
      #expect(!text.contains("known-secret-77"))
    }
  }

  @Test func sourcedScriptsMaskThemToo() async {
    let sink = CapturingSink()
    let code = await ScriptRunner.runSource(
      text: Self.script, name: "<stdin>", context: makeTestContext(), output: sink, executor: FakeBackend().executor)
    #expect(code == 2)
    #expect(sink.standardError.contains("--password \"***\""))
    #expect(!(sink.standardOutput + sink.standardError).contains("known-pw-123"))
    #expect(!(sink.standardOutput + sink.standardError).contains("known-secret-77"))
  }
}

/// `include` reads `.auth` scripts only: a parse error would show a line of any other file.
@Suite struct IncludeOnlyScriptsTests {
  static let firstLine = "root:$6$known-first-line-hash:19000:0:99999:7:::"

  func withFiles(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-include-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try (Self.firstLine + "\nsecond line\n").write(
      to: directory.appendingPathComponent("shadow"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("disguised.auth").path,
      withDestinationPath: directory.appendingPathComponent("shadow").path)
    try await body(directory)
  }

  func runFromDisk(_ text: String, in directory: URL) async -> (Int32, String) {
    let sink = CapturingSink()
    let code = await ScriptRunner.runSource(
      text: text, name: directory.appendingPathComponent("main.auth").path, context: makeTestContext(), output: sink,
      executor: FakeBackend().executor)
    return (code, sink.standardOutput + sink.standardError)
  }

  @Test func aFileThatIsNotAnAuthScriptIsNotReadNorShown() async throws {
    try await withFiles { directory in
      for path in ["shadow", directory.appendingPathComponent("shadow").path] {
        let (code, output) = await runFromDisk("include \(path)\necho hi\n", in: directory)
        #expect(code == 2)
        #expect(output.contains("error: include needs an .auth script"))
        #expect(!output.contains("known-first-line"), "\(output)")
        #expect(!output.contains("second line"))
      }
    }
  }

  @Test func anAuthNameLinkingToAnotherFileIsNotReadEither() async throws {
    try await withFiles { directory in
      let (code, output) = await runFromDisk("include disguised.auth\n", in: directory)
      #expect(code == 2)
      #expect(output.contains("error: cannot include 'disguised.auth'"))
      #expect(!output.contains("known-first-line"), "\(output)")
    }
  }

  @Test func aRealAuthScriptStillIncludes() async throws {
    try await withFiles { directory in
      try "echo from-lib\n".write(to: directory.appendingPathComponent("lib.auth"), atomically: true, encoding: .utf8)
      let (code, output) = await runFromDisk("include lib.auth\n", in: directory)
      #expect(code == 0, "\(output)")
      #expect(output.contains("from-lib"))
    }
  }
}
