import AuthCore
import Foundation
import JSONKit
import ShellKit
import Testing

/// The rails, driven by the command table through the real runner, so a new command cannot
/// forget them: whatever its row says it does to an account decides what happens.
@Suite struct SupportRailsTableTests {
  static let granting = CommandTable.all.filter { $0.access.refusedWhenReadonly }
  static let confirming = CommandTable.all.filter { $0.access.needsConfirmation }
  static let reading = CommandTable.all.filter { $0.access == .read }

  /// `user import`'s file: one account.
  static let importFile: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-rails-\(UUID().uuidString).jsonl")
      .path
    _ = FileManager.default.createFile(atPath: path, contents: Data("{\"email\":\"user9@example.com\"}\n".utf8))
    return path
  }()

  /// The command's line on user1's account, with a password where it takes one.
  static func line(_ spec: CommandSpec, _ extra: String = "") -> String {
    var words = spec.words
    if spec.arguments.contains(where: { $0.name == "EMAIL" }) { words.append("user1@example.com") }
    if spec.arguments.contains(where: { $0.name == "NEW-EMAIL" }) { words.append("new1@example.com") }
    if spec.arguments.contains(where: { $0.name == "FILE" }) { words.append(importFile) }
    if spec.accepts("--password") { words += ["--password", "a-new-password-1"] }
    if spec.id == .userUpdate { words += ["--name", "Renamed"] }
    return (words + (extra.isEmpty ? [] : [extra])).joined(separator: " ")
  }

  @Test(arguments: granting)
  func aReadonlyProfileRefusesItBeforeAnythingIsSent(_ spec: CommandSpec) async throws {
    let harness = SupportHarness([SupportHarness.user(1)], readonly: true)
    let result = try await harness.run(Self.line(spec, spec.accepts("--yes") ? "--yes" : ""))
    #expect(result.error?.code == .readonlyProfile, "\(spec.name): \(String(describing: result.error))")
    #expect(ExitStatus.oneShot(result) == 1)
    #expect(harness.provider.calls.isEmpty, "\(spec.name) sent \(harness.provider.calls)")
    #expect(try harness.audit.entries(since: nil).isEmpty)
  }

  @Test(arguments: reading)
  func aReadonlyProfileStillReads(_ spec: CommandSpec) async throws {
    let harness = SupportHarness([SupportHarness.user(1)], readonly: true)
    let result = try await harness.run(Self.line(spec))
    #expect(result.error?.code != .readonlyProfile, "\(spec.name)")
    #expect(try harness.audit.entries(since: nil).isEmpty, "reads are not audited")
  }

  @Test(arguments: confirming)
  func withoutATerminalItNeedsYesAndChangesNothing(_ spec: CommandSpec) async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    let result = try await harness.run(Self.line(spec))
    #expect(ExitStatus.oneShot(result) == ExitStatus.usage, "\(spec.name): \(String(describing: result.error))")
    #expect(result.error?.message.contains("--yes") == true)
    #expect(
      harness.provider.calls.allSatisfy { $0.hasPrefix("user ") },
      "\(spec.name) only looked the account up: \(harness.provider.calls)")
  }

  @Test(arguments: confirming)
  func onATerminalItAsksForTheAddress(_ spec: CommandSpec) async throws {
    var harness = SupportHarness([SupportHarness.user(1)])
    let prompter = ScriptedPrompter(["user1@example.com"])
    harness = harness.with { $0.linePrompter = prompter }
    let result = try await harness.run(Self.line(spec))
    // The fake backend cannot sign a user out; everything else goes through.
    #expect(result.ok || result.error?.code == .notSupported, "\(spec.name): \(String(describing: result.error))")
    #expect(prompter.prompts.count == 1 && prompter.prompts[0].contains("Type the e-mail address to confirm"))
  }

  @Test(arguments: granting)
  func everyGrantAndChangeLeavesItsAttemptAndItsOutcome(_ spec: CommandSpec) async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    let result = try await harness.run(Self.line(spec, spec.accepts("--yes") ? "--yes" : ""))
    let entries = try harness.audit.entries(since: nil)
    #expect(entries.count == 2, "\(spec.name)")
    #expect(entries.allSatisfy { $0.command == spec.name })
    #expect(entries.first?.outcome == "started")
    #expect(entries.last?.outcome == (result.error?.code.rawValue ?? "ok"))
    #expect(!entries.map(\.json.compactText).joined().contains("a-new-password-1"))
  }
}
