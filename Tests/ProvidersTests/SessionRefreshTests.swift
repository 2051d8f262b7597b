import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import ShellKit
import Testing

/// Issue 11 item 3: a refused access token is answered by exactly one refresh; the session ends
/// only when the refresh is refused, and the message says why (inactivity, revoked, user deleted,
/// another backend's session).
@Suite struct SessionRefreshTests {
  static let userPath = "/auth/v1/user"
  static let tokenPath = "/auth/v1/token"
  static let badJWT =
    #"{"code":"bad_jwt","message":"invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired"}"#
  static let userGone = #"{"code":"user_not_found","message":"User from sub claim in JWT does not exist"}"#
  static let sessionGone =
    #"{"code":"session_not_found","message":"Session from session_id claim in JWT does not exist"}"#

  func bearer(_ request: ServerRequest) -> String? {
    request.headers.first { $0.name.lowercased() == "authorization" }?.value
  }

  /// `GET /user` answers each call from `answers` in turn (the last one repeats).
  func userAnswers(_ harness: Harness, _ answers: [(Int, String)]) {
    let calls = Guarded(0)
    harness.server.on("GET", Self.userPath) { _ in
      let (status, json) = answers[min(calls.next(), answers.count - 1)]
      return ServerResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(json.utf8))
    }
  }

  func refreshes(_ harness: Harness) -> Int {
    harness.server.requests.filter { $0.uri.hasPrefix(Self.tokenPath + "?grant_type=refresh_token") }.count
  }

  @Test func refusedAccessTokenIsRefreshedOnceAndTheCallRepeated() async throws {
    try await withStarted(Harness(.supabase)) { harness in
      try harness.signedIn()
      userAnswers(harness, [(403, Self.badJWT), (200, Fixture.text("supabase/user.json"))])
      harness.server.on("POST", Self.tokenPath, status: 200, json: Fixture.text("supabase/session.json"))
      let result = try await harness.run("whoami")
      #expect(result.error == nil, "\(String(describing: result.error))")
      #expect(result.user?.email == "ada@example.com")
      #expect(refreshes(harness) == 1)
      let users = harness.server.requests.filter { $0.uri == Self.userPath }
      #expect(users.count == 2)
      #expect(bearer(users[0]) == "Bearer " + Harness.accessToken)
      #expect(bearer(users[1]) != "Bearer " + Harness.accessToken, "the repeated call carries the new token")
      #expect(try harness.store.load(profile: harness.backendKey).session?.refreshToken == "abcd1234wxyz")
      #expect(try harness.store.load(profile: harness.backendKey).session?.accessToken != Harness.accessToken)
    }
  }

  /// Each way a session can end, as GoTrue answers it: the error, its message, and one refresh.
  @Test(arguments: [
    ("refresh token refused", 403, badJWT, false, "You were logged out due to inactivity. Please log in again."),
    ("user deleted", 403, userGone, false, SessionEnd.userDeletedMessage),
    ("signed out elsewhere", 403, sessionGone, false, SessionEnd.revokedMessage),
    ("revoked although the refresh worked", 403, sessionGone, true, SessionEnd.revokedMessage),
  ])
  func sessionEndsWithTheRightMessage(
    _ name: String, _ status: Int, _ body: String, _ refreshWorks: Bool, _ message: String
  )
    async throws
  {
    try await withStarted(Harness(.supabase)) { harness in
      try harness.signedIn()
      userAnswers(harness, [(status, body)])
      if refreshWorks {
        harness.server.on("POST", Self.tokenPath, status: 200, json: Fixture.text("supabase/session.json"))
      } else {
        harness.server.on(
          "POST", Self.tokenPath, status: 400, json: Fixture.text("supabase/error_refresh_token_not_found.json"))
      }
      let result = try await harness.run("whoami")
      let error = try #require(result.error, "\(name)")
      #expect(error.code == .sessionExpired, "\(name)")
      #expect(error.message == message, "\(name)")
      #expect(ExitStatus.oneShot(result) == 4)
      #expect(refreshes(harness) == 1, "exactly one refresh (\(name))")
      #expect(try harness.store.load(profile: harness.backendKey).session == nil, "the ended session is forgotten")
    }
  }

  @Test func firebaseDeletedUserAndRevokedCredential() async throws {
    for (lookupError, refreshError, message) in [
      ("error_USER_NOT_FOUND.json", "error_INVALID_REFRESH_TOKEN.json", SessionEnd.userDeletedMessage),
      ("error_INVALID_ID_TOKEN.json", "error_TOKEN_EXPIRED.json", SessionEnd.revokedMessage),
      (
        "error_INVALID_ID_TOKEN.json", "error_INVALID_REFRESH_TOKEN.json",
        "You were logged out due to inactivity. Please log in again."
      ),
    ] {
      let harness = try await Harness(.firebase)
      try harness.signedIn()
      harness.server.on(
        "POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup", status: 400,
        json: Fixture.text("firebase/" + lookupError))
      harness.server.on(
        "POST", "/securetoken.googleapis.com/v1/token", status: 400, json: Fixture.text("firebase/" + refreshError))
      let result = try await harness.run("whoami")
      #expect(result.error?.message == message, "\(lookupError) + \(refreshError)")
      #expect(harness.server.requests.filter { $0.uri.hasPrefix("/securetoken.googleapis.com/v1/token") }.count == 1)
      await harness.stop()
    }
  }

  /// A state saved for another backend (a copied or renamed file) is never sent anywhere.
  @Test func anotherBackendsSessionIsNotSent() async throws {
    try await withStarted(Harness(.supabase)) { harness in
      try harness.signedIn()
      var state = try harness.store.load(profile: harness.backendKey)
      state.backend = "supabase https://other.supabase.co:443/auth/v1"
      try harness.store.save(state, profile: harness.backendKey)
      let result = try await harness.run("whoami")
      let error = try #require(result.error)
      #expect(error.code == .notAuthenticated)
      #expect(error.message.contains("belongs to supabase https://other.supabase.co:443/auth/v1"))
      #expect(!error.message.contains("inactivity"))
      #expect(ExitStatus.oneShot(result) == 4)
      #expect(harness.server.requests.isEmpty, "nothing was sent")
      let status = try await harness.run("status")
      #expect(status.session == nil, "status does not show the other backend's user")
    }
  }
}
