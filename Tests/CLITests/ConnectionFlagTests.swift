import AuthTestSupport
import Foundation
import ShellKit
import Testing

/// Every connection flag of the table is taken before the command word and after it: the table
/// declares them and the executable records each (a flag declared without a place to go would be
/// "unknown flag" here).
@Suite struct ConnectionFlagTests {
  let runner: BinaryRunner
  init() throws { runner = try BinaryRunner() }

  static func words(_ flag: FlagSpec) -> [String] {
    guard flag.takesValue else { return [flag.name] }
    let value =
      switch flag.name {
      case "--provider": "supabase"
      case "--credential-store": "file"
      case "--url": "http://127.0.0.1:9"
      default: "x"
      }
    return [flag.name, value]
  }

  @Test(arguments: CommandTable.connectionFlags.map(\.name))
  func everyConnectionFlagIsTakenBeforeAndAfterTheCommand(_ name: String) async throws {
    let flag = try #require(CommandTable.connectionFlags.first { $0.name == name })
    for line in [Self.words(flag) + ["version"], ["version"] + Self.words(flag)] {
      let outcome = try await runner.run(line)
      #expect(!outcome.stderr.contains("unknown flag"), "\(line): \(outcome.stderr)")
    }
  }
}
