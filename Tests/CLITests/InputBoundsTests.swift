import AuthTestSupport
import Foundation
import Testing

/// Every input is bounded: a file that never ends (`/dev/zero`) or a template that doubles itself
/// is a clear error naming the file or line, at once and in little memory, and nothing is sent.
@Suite struct InputBoundsTests {
  @Test func endlessFilesAreUsageErrorsNamingTheFileAndLine() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase", accounts: 1)) { cli in
      let cases: [([String], Int32, String)] = [
        (
          ["user", "delete", "--from", "/dev/zero", "--yes"], 64,
          "Line 1 of /dev/zero is longer than 65536 bytes: it is not an account; nothing was sent."
        ),
        (
          ["user", "import", "/dev/zero", "--yes"], 64,
          "Cannot read /dev/zero: line 1 is longer than 64 MB (is it a text file?)."
        ),
        (
          ["user", "import", "-", "--hash-config", "/dev/zero", "--yes"], 64,
          "Cannot read the hash config /dev/zero: line 1 is longer than 64 KB"
        ),
        (["run", "--data", "/dev/zero", "x.auth"], 64, "cannot read --data /dev/zero: line 1 is longer than 1 MB"),
      ]
      for (arguments, status, message) in cases {
        let outcome = try await cli.runner.run(arguments, stdin: "", timeout: 60)
        #expect(outcome.status == status, "\(arguments): \(outcome.combined.prefix(400))")
        #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr.prefix(400))")
      }
    }
  }

  @Test func anIncludedEndlessFileAndADoublingLetAreToldAtTheirLines() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase")) { cli in
      let directory = NSTemporaryDirectory() + "authsh-bounds-\(getpid())"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let doubling =
        ["let v0 = \"ab\""] + (1..<40).map { "let v\($0) = \"{{v\($0 - 1)}}{{v\($0 - 1)}}\"" } + ["echo {{v39}}"]
      try (doubling.joined(separator: "\n") + "\n").write(
        toFile: directory + "/double.auth", atomically: true, encoding: .utf8)
      let outcome = try await cli.runner.run(["run", directory + "/double.auth"], timeout: 60)
      #expect(outcome.status == 1, "\(outcome.combined.prefix(600))")
      #expect(outcome.combined.contains("21 | let v20 = \"{{v19}}{{v19}}\""), "\(outcome.combined.prefix(600))")
      #expect(outcome.combined.contains("values are capped at 1 MB"))
      try String(repeating: "# a comment line that never ends ", count: 200_000).write(
        toFile: directory + "/huge.auth", atomically: true, encoding: .utf8)
      try "include \"huge.auth\"\n".write(toFile: directory + "/main.auth", atomically: true, encoding: .utf8)
      let included = try await cli.runner.run(["run", directory + "/main.auth"], timeout: 60)
      #expect(included.status == 2, "\(included.combined.prefix(600))")
      #expect(
        included.combined.contains("is larger than 4 MB") || included.combined.contains("longer than 4 MB"),
        "\(included.combined.prefix(600))")
    }
  }
}
