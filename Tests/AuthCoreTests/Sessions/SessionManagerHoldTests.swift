import Foundation
import Testing

@testable import AuthCore

/// Issue 11 item 6: reset holds past their window are dropped from the store.
@Suite struct SessionManagerHoldTests {
  /// A file with nothing left but expired holds is removed, not kept with the addresses in it.
  @Test func storeWithOnlyExpiredHoldsIsRemoved() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "authsh-hold-\(UUID().uuidString)/sessions"
    ).path
    let store = FileSessionStore(directory: directory)
    let clock = ManualClock()
    let key = "supabase https://abcd.supabase.co:443/auth/v1"
    let sessions = SessionManager(store: store, profile: key, clock: clock)
    try sessions.update { $0.resetSentAt["ada@example.com"] = clock.unixNow }
    #expect(FileManager.default.fileExists(atPath: store.path(for: key)))
    clock.advance(60)
    #expect(try sessions.state().resetSentAt.isEmpty, "an expired hold is not reported")
    try sessions.update { _ in }
    #expect(!FileManager.default.fileExists(atPath: store.path(for: key)))
    let text = (try? String(contentsOfFile: store.path(for: key), encoding: .utf8)) ?? ""
    #expect(!text.contains("ada@example.com"))
  }
}
