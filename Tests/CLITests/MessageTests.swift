import AuthTestSupport
import Foundation
import Testing

/// Failures outside authsh's own errors are said in words, never in Foundation's text
/// ("The operation could not be completed", "NSCocoaErrorDomain").
@Suite struct MessageTests {
  static let foundationText = ["The operation could not be completed", "NSCocoaErrorDomain", "Error Domain"]

  @Test func aConfigFileThatIsADirectoryIsAConfigError() async throws {
    let runner = try BinaryRunner()
    let path = (runner.environment["XDG_CONFIG_HOME"] ?? runner.home + "/.config") + "/authsh/config.toml"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for arguments in [["status"], ["run", "/dev/null"]] {
      let outcome = try await runner.run(arguments)
      #expect(outcome.status == 78, "\(arguments)")
      #expect(outcome.stderr.hasPrefix("error: Cannot read \(path): it is a directory.\n"), "\(outcome.stderr)")
    }
  }

  @Test func standardInputThatIsADirectorySaysSo() async throws {
    let runner = try BinaryRunner()
    let outcome = try ProgramRunner.run(
      "/bin/sh", ["-c", #"exec "$0" < /"#, runner.executable.path], environment: runner.environment)
    #expect(outcome.status == 1)
    #expect(outcome.stderr == "error: cannot read standard input: it is a directory\n")
    for text in Self.foundationText { #expect(!outcome.stderr.contains(text)) }
  }
}
