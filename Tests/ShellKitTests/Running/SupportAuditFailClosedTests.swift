import AuthCore
import Foundation
import JSONKit
import Testing

@testable import ShellKit

/// An audit log that accepts `accepting` lines, then fails as a full disk does.
final class FillingAuditLog: AuditLog {
  private struct State {
    var accepting: Int
    var lines: [AuditEntry] = []
  }
  private let state: Guarded<State>
  var lines: [AuditEntry] { state[\.lines] }
  init(accepting: Int) { state = Guarded(State(accepting: accepting)) }
  func checkWritable() throws {
    if state[\.accepting] == 0 { throw Self.full }
  }
  func append(_ entry: AuditEntry) throws {
    try state.update { (state) throws(AuthError) in
      guard state.accepting > 0 else { throw Self.full }
      state.accepting -= 1
      state.lines.append(entry)
    }
  }
  func entries(since: Int?) throws -> [AuditEntry] { lines }
  private static let full = AuthError(
    .auditUnavailable, message: "Could not write to the audit log /s/audit.jsonl: No space left on device.")
}

/// Issue 20 item 4: no change is sent unless its attempt is in the log; a change made whose
/// outcome cannot be logged is a failure, not a warning.
@Suite struct SupportAuditFailClosedTests {
  func harness(accepting: Int) -> (SupportHarness, FillingAuditLog) {
    let log = FillingAuditLog(accepting: accepting)
    let harness = SupportHarness([SupportHarness.user(1)], auditLog: log)
    return (harness, log)
  }

  @Test func anUnwritableLogRefusesTheChangeBeforeAnythingIsSent() async throws {
    let (harness, log) = harness(accepting: 0)
    let result = try await harness.run("user disable user1@example.com --yes")
    #expect(result.error?.code == .auditUnavailable)
    #expect(
      result.error?.message
        == "'user disable' was not sent: Could not write to the audit log /s/audit.jsonl: No space left on device.")
    #expect(ExitStatus.oneShot(result) == 74)
    #expect(harness.provider.calls.isEmpty, "nothing sent, not even the lookup: \(harness.provider.calls)")
    #expect(log.lines.isEmpty)
  }

  @Test func aChangeWhoseOutcomeCannotBeLoggedFailsLoudly() async throws {
    let (harness, log) = harness(accepting: 1)
    let result = try await harness.run("user disable user1@example.com --yes")
    #expect(result.error?.code == .auditUnavailable)
    #expect(
      result.error?.message.hasPrefix(
        "'user disable' was applied, but its outcome could not be recorded in the audit log") == true)
    #expect(ExitStatus.oneShot(result) == 74)
    #expect(result.json(now: 0, revealTokens: false)["ok"]?.bool == false)
    #expect(log.lines.map(\.outcome) == ["started"])
  }

  @Test func aCancelledChangeIsLoggedAsPerhapsApplied() throws {
    let (harness, log) = harness(accepting: 5)
    let invocation = try SupportHarness.invocation("user disable user1@example.com --yes")
    let target = try harness.context.target()
    let guardRails = SupportGuard(invocation: invocation, context: harness.context, target: target)
    try guardRails.recordAttempt(email: "user1@example.com")
    try guardRails.record(user: nil, email: "user1@example.com", error: AuthError(.cancelled))
    #expect(log.lines.map(\.outcome) == ["started", "cancelled"])
    #expect(log.lines.last?.note == "may have been applied")
    #expect(SupportRenderer.audit(log.lines).last?.contains("cancelled; may have been applied") == true)
  }

  /// A confirmation answered no sent nothing: its line says so, never "may have been applied".
  @Test func aConfirmationAnsweredNoIsLoggedAsNothingSent() async throws {
    var (harness, log) = harness(accepting: 5)
    harness = harness.with { $0.linePrompter = ScriptedPrompter(["nope@example.com"]) }
    let result = try await harness.run("user delete user1@example.com")
    #expect(result.error?.code == .cancelled && result.error?.neverSent == true)
    #expect(log.lines.last?.outcome == "cancelled" && log.lines.last?.note == "not confirmed: nothing was sent")
  }
}
