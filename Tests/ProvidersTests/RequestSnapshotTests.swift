import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import ShellKit
import Testing

/// What goes on the wire for each call, pinned as text (secrets redacted) in Snapshots/.
@Suite struct RequestSnapshotTests {
  struct Call: Sendable, CustomTestStringConvertible {
    var name: String
    var provider: ProviderKind
    var line: String
    var signedIn = false
    /// (method, path, status, fixture) answers.
    var answers: [(String, String, Int, String?)]
    var testDescription: String { "\(provider.rawValue)-\(name)" }
  }

  static let supabaseSession = "supabase/session.json"
  static let calls: [Call] = [
    Call(
      name: "signup", provider: .supabase,
      line: "signup ada@example.com --name 'Ada Lovelace' --password correct-horse-battery",
      answers: [("POST", "/auth/v1/signup", 200, supabaseSession)]),
    Call(
      name: "login", provider: .supabase, line: "login ada@example.com --password correct-horse-battery",
      answers: [("POST", "/auth/v1/token", 200, supabaseSession)]),
    Call(
      name: "reset", provider: .supabase, line: "reset ada@example.com",
      answers: [("POST", "/auth/v1/recover", 200, nil)]),
    Call(
      name: "reset-confirm-link", provider: .supabase,
      line:
        "reset confirm 'http://127.0.0.1:54321/auth/v1/verify?token=2f0f8c4bd0bc5a36a4b53c0c2fd81b43f8cbd1e6d4a6a0bd8fb0ff36&type=recovery&redirect_to=http://localhost:3000' --password new-password-123",
      answers: [("POST", "/auth/v1/verify", 200, supabaseSession), ("PUT", "/auth/v1/user", 200, "supabase/user.json")]),
    Call(
      name: "reset-confirm-code", provider: .supabase,
      line: "reset confirm 123456 --email Ada@Example.com --password new-password-123",
      answers: [("POST", "/auth/v1/verify", 200, supabaseSession), ("PUT", "/auth/v1/user", 200, "supabase/user.json")]),
    Call(
      name: "whoami", provider: .supabase, line: "whoami", signedIn: true,
      answers: [("GET", "/auth/v1/user", 200, "supabase/user.json")]),
    Call(
      name: "refresh", provider: .supabase, line: "refresh", signedIn: true,
      answers: [("POST", "/auth/v1/token", 200, supabaseSession)]),
    Call(
      name: "logout", provider: .supabase, line: "logout --scope local", signedIn: true,
      answers: [("POST", "/auth/v1/logout", 204, nil)]),
    Call(
      name: "signup", provider: .firebase,
      line: "signup ada@example.com --name 'Ada Lovelace' --password correct-horse-battery",
      answers: [
        ("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp", 200, "firebase/signup.json"),
        ("POST", "/identitytoolkit.googleapis.com/v1/accounts:update", 200, "firebase/update_profile.json"),
      ]),
    Call(
      name: "login", provider: .firebase, line: "login ada@example.com --password correct-horse-battery",
      answers: [("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", 200, "firebase/signin.json")]
    ),
    Call(
      name: "reset", provider: .firebase, line: "reset ada@example.com",
      answers: [("POST", "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode", 200, "firebase/send_oob.json")]),
    Call(
      name: "reset-confirm-link", provider: .firebase,
      line:
        "reset confirm 'http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=Xk3oobCodeFromTheMail_0123456789abcdefghijklmnopqrstuv&apiKey=fake-api-key' --password new-password-123",
      answers: [
        ("POST", "/identitytoolkit.googleapis.com/v1/accounts:resetPassword", 200, "firebase/reset_password.json"),
        ("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", 200, "firebase/signin.json"),
      ]),
    Call(
      name: "whoami", provider: .firebase, line: "whoami", signedIn: true,
      answers: [("POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup", 200, "firebase/lookup.json")]),
    Call(
      name: "refresh", provider: .firebase, line: "refresh", signedIn: true,
      answers: [("POST", "/securetoken.googleapis.com/v1/token", 200, "firebase/token.json")]),
  ]

  @Test(arguments: calls)
  func wireRequest(_ call: Call) async throws {
    try await withStarted(Harness(call.provider)) { harness in
      if call.signedIn { try harness.signedIn(refreshToken: "stored+refresh/token==") }
      var secrets = [
        Harness.password, "new-password-123", "anon-key-for-tests", "api-key-for-tests", Harness.accessToken,
        "stored+refresh/token==",
      ]
      for (method, path, status, fixture) in call.answers {
        let body = fixture.map { Array(Fixture.text($0).utf8) } ?? []
        if let json = try? JSON.parse(bytes: body) {
          secrets += ["access_token", "refresh_token", "idToken", "refreshToken", "id_token"].compactMap {
            json[$0]?.string
          }
        }
        harness.server.on(method, path) { _ in
          ServerResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
        }
      }
      let result = try await harness.run(call.line)
      #expect(result.ok, "\(result.error.map { "\($0.code): \($0.message) \($0.detail ?? "")" } ?? "")")
      let text = harness.server.requests.map { $0.snapshot(redacting: secrets) }.joined(separator: "\n")
      for secret in secrets { #expect(!text.contains(secret)) }
      if let diff = Snapshot.check(text, named: "\(call.provider.rawValue)-\(call.name)") {
        Issue.record(Comment(rawValue: diff))
      }
    }
  }
}
