import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import ShellKit
import Testing

/// Backend answers that need more than one request to reach, and the client-side limits that
/// keep a request from being sent at all.
@Suite struct ErrorMeaningTests {
  static let verify = "/auth/v1/verify"
  static let link =
    "'http://127.0.0.1:54321/auth/v1/verify?token=2f0f8c4bd0bc5a36a4b53c0c2fd81b43f8cbd1e6d4a6a0bd8fb0ff36&type=recovery'"
  /// A session answer that expires an hour after it is read.
  static let freshSession = Fixture.text("supabase/session.json").replacingOccurrences(
    of: "\"expires_at\":1767229200,", with: "")

  /// As GoTrue answers a client that sends `X-Supabase-Api-Version: 2024-01-01` (echoed on errors).
  static func json(_ status: Int, _ fixture: String) -> ServerResponse {
    var headers = [(name: "Content-Type", value: "application/json")]
    if status >= 400 { headers.append((name: "X-Supabase-Api-Version", value: "2024-01-01")) }
    return ServerResponse(status: status, headers: headers, body: Array(fixture.utf8))
  }

  /// PUT /user after a successful /verify: the link is used up whatever the server says next.
  @Test(arguments: [
    ("error_same_password.json", 422, ErrorCode.samePassword, "same_password"),
    ("error_reauthentication_needed.json", 400, .reauthenticationNeeded, "reauthentication_needed"),
    ("error_current_password_required.json", 400, .reauthenticationNeeded, "current_password_required"),
  ])
  func passwordChangeRefusedAfterVerify(_ fixture: String, _ status: Int, _ code: ErrorCode, _ providerCode: String)
    async throws
  {
    try await withStarted(Harness(.supabase)) { harness in
      harness.server.on("POST", Self.verify) { _ in Self.json(200, Self.freshSession) }
      harness.server.on("PUT", "/auth/v1/user") { _ in Self.json(status, Fixture.text("supabase/" + fixture)) }
      let result = try await harness.run("reset confirm \(Self.link) --password correct-horse-2")
      let error = try #require(result.error)
      #expect(error.code == code)
      #expect(error.providerCode == providerCode)
      #expect(error.status == status)
      #expect(ExitStatus.oneShot(result) == 1)
      if code == .samePassword {
        #expect(
          error.message == "The new password must be different from the current one. This reset link has now been used."
        )
        #expect(error.hint == "Request a new link with `authsh reset ada@example.com` and choose a different password.")
      } else if providerCode == "reauthentication_needed" {
        #expect(error.message == "Changing the password needs a recent sign-in. Log in again, then retry.")
      } else {
        #expect(error.message == "This project asks for the current password to change it.")
      }
    }
  }

  /// 409 `conflict`: another refresh of the session held the server's lock; one retry.
  @Test func refreshConflictIsRetriedOnce() async throws {
    try await withStarted(Harness(.supabase)) { harness in
      try harness.signedIn(expiresIn: 3600)
      let calls = Guarded(0)
      harness.server.on("POST", "/auth/v1/token") { _ in
        calls.next() == 0
          ? Self.json(409, Fixture.text("supabase/error_conflict.json")) : Self.json(200, Self.freshSession)
      }
      let result = try await harness.run("refresh")
      #expect(result.ok, "\(String(describing: result.error))")
      #expect(harness.server.requests.filter { $0.path == "/auth/v1/token" }.count == 2)
    }
  }

  @Test func refreshConflictTwiceKeepsTheSession() async throws {
    try await withStarted(Harness(.supabase)) { harness in
      try harness.signedIn(expiresIn: 3600)
      harness.server.on("POST", "/auth/v1/token") { _ in Self.json(409, Fixture.text("supabase/error_conflict.json")) }
      let result = try await harness.run("refresh")
      let error = try #require(result.error)
      #expect(error.code == .serverError)
      #expect(error.message == "Server error. Please try again later.")
      #expect(error.providerCode == "conflict")
      #expect(ExitStatus.oneShot(result) == 3)
      #expect(harness.server.requests.count == 2, "one retry, not more")
      #expect(
        try harness.store.load(profile: harness.backendKey).session != nil, "a busy server does not end the session")
    }
  }

  /// bcrypt reads 72 bytes: Supabase refuses longer passwords, so they are not sent. Bytes, not
  /// characters: 40 "é" are 40 characters but 80 bytes.
  @Test(arguments: [
    "signup ada@example.com --name Ada --password ",
    "reset confirm \(link) --password ",
  ])
  func supabasePasswordOver72BytesIsNotSent(_ line: String) async throws {
    try await withStarted(Harness(.supabase)) { harness in
      for password in [String(repeating: "x", count: 73), String(repeating: "é", count: 40)] {
        let result = try await harness.run(line + "'\(password)'")
        let error = try #require(result.error)
        #expect(error.code == .validationFailed)
        #expect(error.message == "Password must be at most 72 bytes")
        #expect(error.fields.map(\.code) == ["password_too_long"])
        #expect(error.hint?.contains("bcrypt") == true)
        #expect(ExitStatus.oneShot(result) == 1)
      }
      #expect(harness.server.requests.isEmpty, "nothing sent, the reset link is not used up")
    }
  }

  @Test func supabasePasswordOf72BytesIsSent() async throws {
    try await withStarted(Harness(.supabase)) { harness in
      harness.server.on("POST", "/auth/v1/signup") { _ in Self.json(200, Self.freshSession) }
      // 36 "é": 36 characters, exactly 72 bytes.
      let result = try await harness.run(
        "signup ada@example.com --name Ada --password '\(String(repeating: "é", count: 36))'")
      #expect(result.ok, "\(String(describing: result.error))")
      #expect(harness.server.requests.count == 1)
    }
  }

  @Test func firebaseHasNoBcryptLimit() async throws {
    try await withStarted(Harness(.firebase)) { harness in
      harness.server.on("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp") { _ in
        Self.json(400, Fixture.text("firebase/error_EMAIL_EXISTS.json"))
      }
      let result = try await harness.run(
        "signup ada@example.com --name Ada --password '\(String(repeating: "x", count: 100))'")
      #expect(result.error?.code == .userAlreadyExists, "the request was sent")
    }
  }
}
