import Foundation
import JSONKit
import Testing

@testable import AuthCore

/// A saved session whose expiry is out of range (written by an older version, or edited by hand)
/// is reported with the file and the fix; nothing does arithmetic on it.
@Suite struct UnusableSessionTests {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-unusable-\(UUID().uuidString)")
    .path

  func write(_ store: FileSessionStore, expiresAt: String, resetSentAt: String = "1767225600") throws {
    let text = """
      {"version":2,"backend":"default","session":{"access_token":"a","refresh_token":"r","expires_at":\(expiresAt),"token_type":"bearer",
      "user":{"id":"u1","email":"ada@example.com"}},"remembered_email":null,"reset_sent_at":{"ada@example.com":\(resetSentAt)}}
      """
    try store.save(ProfileState(), profile: "default")  // creates the 0700 directory
    let path = store.path(for: "default")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o600)
  }

  @Test(arguments: ["-9223372036854775807", "9223372036854775807", "1e300", "-1", "253402300800", "\"soon\"", "null"])
  func outOfRangeExpiryNamesTheFileAndTheFix(_ expiresAt: String) throws {
    let store = FileSessionStore(directory: directory)
    try write(store, expiresAt: expiresAt)
    let manager = SessionManager(store: store, profile: "default", clock: ManualClock())
    let error = try #require(throws: AuthError.self) { try manager.storedSession() }
    #expect(error.code == .configError)
    #expect(error.message.contains(store.path(for: "default")))
    #expect(error.hint?.contains("authsh logout") == true)
    #expect(error.hint?.contains("rm \(store.path(for: "default"))") == true)
    // Other state stays readable; clearing the session makes the profile usable again.
    #expect(try manager.state().rememberedEmail == nil)
    try manager.save(session: nil)
    #expect(try manager.storedSession() == nil)
  }

  @Test func plausibleExpiryStillLoads() throws {
    let store = FileSessionStore(directory: directory)
    try write(store, expiresAt: "1767229200")
    #expect(
      try SessionManager(store: store, profile: "default", clock: ManualClock()).storedSession()?.expiresAt
        == 1_767_229_200)
  }

  @Test(arguments: ["-9223372036854775808", "9223372036854775807", "1e300"])
  func outOfRangeResetTimesAreDropped(_ sentAt: String) throws {
    let store = FileSessionStore(directory: directory)
    try write(store, expiresAt: "1767229200", resetSentAt: sentAt)
    #expect(try store.load(profile: "default").resetSentAt.isEmpty)
  }

  @Test func arithmeticSaturates() {
    let user = AuthUser(id: "u", email: "e", emailConfirmed: false, provider: "email")
    #expect(
      AuthSession(accessToken: "a", refreshToken: "r", expiresAt: Int.min + 1, user: user).expiresIn(now: 1_767_225_600)
        == Int.min)
    #expect(
      AuthSession(accessToken: "a", refreshToken: "r", expiresAt: Int.max, user: user).expiresIn(now: -5) == Int.max)
    #expect(UnixTime.adding(Int.max, to: 1_767_225_600) == nil)
    #expect(UnixTime.adding(-1, to: 1_767_225_600) == nil)
    #expect(UnixTime.adding(3600, to: 1_767_225_600) == 1_767_229_200)
    #expect(AuthError.minutes(Int.max) == "\(Int.max / 60 + 1) minutes")
  }
}
