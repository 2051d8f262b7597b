import AuthCore
import AuthTestSupport
import CurlTransport
import Foundation
import HTTPServerKit
import JSONKit
import Providers
import ShellKit
import Testing

/// `SupabaseAdminProvider` against recorded GoTrue admin answers (Fixtures/supabase/admin): the
/// exact bodies and headers of the real server, over a real socket.
@Suite struct SupabaseAdminReplayTests {
  static let serviceRole =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSJ9.c2lnbmF0dXJl"
  static let secretKey = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"
  /// 2026-01-01T00:00:00Z.
  static let clock = ManualClock()

  static func fixture(_ name: String) -> String {
    Fixture.text("supabase/admin/" + name, file: URL(fileURLWithPath: #filePath).deletingLastPathComponent().path)
  }

  final class Rig: TestService, @unchecked Sendable {
    let server = FixtureServer()
    init() async throws { try await server.start() }
    func admin(_ credential: AdminCredential = .supabaseServiceRole(SupabaseAdminReplayTests.serviceRole))
      -> SupabaseAdminProvider
    {
      let target = Target(provider: .supabase, profile: "default", url: server.baseURL + "/auth/v1", key: "anon-key")
      return SupabaseAdminProvider(
        target: target, credential: credential, transport: CurlTransport(), clock: SupabaseAdminReplayTests.clock,
        trace: nil)
    }
    /// The last request to the Auth API (a lookup on a loopback host also asks for the outbox).
    var lastAPIRequest: ServerRequest? { server.requests.last { $0.path.hasPrefix("/auth/v1/") } }
    func answer(_ method: String, _ path: String, status: Int = 200, fixture: String, headers: [(String, String)] = [])
    {
      server.on(
        method, "/auth/v1" + path, status: status, json: SupabaseAdminReplayTests.fixture(fixture), headers: headers)
    }

    func stop() async { await server.stop() }
  }

  @Test func userWithIdentitiesAndABanDecodes() async throws {
    try await withStarted(Rig()) { rig in
      rig.answer("GET", "/admin/users/8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11", fixture: "user_banned_google.json")
      let user = try #require(try await rig.admin().user(.id("8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11")))
      #expect(user.email == "ada@example.com")
      #expect(user.confirmed && user.confirmedAt == "2025-03-01T10:00:05Z")
      #expect(user.createdAt == "2025-03-01T09:59:00Z" && user.lastSignInAt == "2025-12-30T08:15:42Z")
      #expect(user.disabled && user.disabledUntil == "2026-01-02T12:00:00Z", "banned_until after the clock's now")
      #expect(user.methods == ["password", "google"], "the email identity is the password method")
      #expect(user.name == "Ada Lovelace")
      #expect(user.metadata?["provider_id"]?.string == "109876543210987654321")
      #expect(user.recoverySentAt == "2025-12-31T23:50:00Z" && user.confirmationSentAt == "2025-03-01T09:59:00Z")
      #expect(user.pendingMail == nil, "no outbox on this server: not a reason to fail")
      let admin = rig.admin()
      for _ in 0..<3 { _ = try await admin.user(.id("8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11")) }
      let outboxAsks = rig.server.requests.filter { $0.path.hasPrefix("/emulator/") }.count
      #expect(outboxAsks == 2, "one provider asks a server without an outbox once (the first rig.admin() asked too)")
    }
  }

  @Test func lookupByEmailPicksTheExactAddress() async throws {
    try await withStarted(Rig()) { rig in
      let ada = Self.fixture("user_banned_google.json")
      let other = ada.replacingOccurrences(of: "ada@example.com", with: "nada@example.com")
        .replacingOccurrences(of: "8f3c3d0e-4a8e", with: "00000000-4a8e")
      rig.server.on(
        "GET", "/auth/v1/admin/users", status: 200, json: "{\"users\":[\(other),\(ada)],\"aud\":\"authenticated\"}",
        headers: [
          ("X-Total-Count", "2"), ("Link", "</admin/users?filter=ada%40example.com&page=1&per_page=100>; rel=\"last\""),
        ])
      // Found in the list, then read by id (the list leaves identities and factors out).
      rig.answer("GET", "/admin/users/8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11", fixture: "user_banned_google.json")
      let user = try #require(try await rig.admin().user(.email("Ada@Example.com")))
      #expect(user.id == "8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11")
      #expect(rig.lastAPIRequest?.path == "/auth/v1/admin/users/8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11")
      let request = try #require(rig.server.requests.last { $0.path == "/auth/v1/admin/users" })
      #expect(request.query("filter") == "ada@example.com", "GoTrue's e-mail match is case-sensitive: lower-cased")
      #expect(request.query("page") == "1" && request.query("per_page") == "500")
      #expect(try await rig.admin().user(.email("da@example.com")) == nil)
    }
  }

  @Test func listReadsTotalAndLinkHeader() async throws {
    try await withStarted(Rig()) { rig in
      rig.answer(
        "GET", "/admin/users", fixture: "users_page.json",
        headers: [
          ("X-Total-Count", "5"),
          ("Link", "</admin/users?page=3&per_page=2>; rel=\"next\", </admin/users?page=3&per_page=2>; rel=\"last\""),
        ])
      let page = try await rig.admin().listUsers(UserListQuery(filter: "EXAMPLE", limit: 2, pageToken: "2"))
      #expect(page.total == 5 && page.nextPageToken == "3")
      #expect(page.users.map(\.email) == ["grace@example.com", "alan@example.com"])
      let grace = page.users[0]
      #expect(grace.disabled && grace.disabledUntil == nil, "a ban a century long is a ban with no end")
      #expect(!grace.confirmed && grace.methods == ["password"])
      let alan = page.users[1]
      #expect(!alan.disabled && alan.disabledUntil == nil, "a ban that has ended")
      #expect(alan.methods == ["github"] && !alan.hasPassword && alan.name == "Alan Turing")
      let request = try #require(rig.lastAPIRequest)
      #expect(
        request.query("page") == "2" && request.query("per_page") == "2" && request.query("filter") == "example",
        "lower-cased: GoTrue's e-mail LIKE is case-sensitive")

      rig.answer(
        "GET", "/admin/users", fixture: "users_page.json",
        headers: [
          ("X-Total-Count", "5"), ("Link", "</admin/users?page=3&per_page=2>; rel=\"last\""),
        ])
      #expect(try await rig.admin().listUsers(UserListQuery(limit: 2, pageToken: "3")).nextPageToken == nil)
    }
  }

  @Test func secretKeyGoesAsApikeyOnlyAndServiceRoleAsBoth() async throws {
    try await withStarted(Rig()) { rig in
      rig.answer("GET", "/admin/users/8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11", fixture: "user_banned_google.json")
      _ = try await rig.admin(.supabaseSecretKey(Self.secretKey)).user(.id("8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11"))
      let secret = try #require(rig.lastAPIRequest)
      #expect(secret.header("apikey") == Self.secretKey)
      #expect(secret.header("Authorization") == nil, "a non-JWT bearer gets bad_jwt")
      _ = try await rig.admin().user(.id("8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11"))
      let role = try #require(rig.lastAPIRequest)
      #expect(role.header("apikey") == Self.serviceRole && role.header("Authorization") == "Bearer " + Self.serviceRole)
    }
  }

  static let refusals: [(String, Int, String, String)] = [
    ("error_no_authorization.json", 401, "no_authorization", "secret key"),
    ("error_bad_jwt_secret_key_as_bearer.json", 403, "bad_jwt", "secret key"),
    ("error_not_admin.json", 403, "not_admin", "not an admin key"),
    ("error_gateway_invalid_api_key.json", 401, "invalid_api_key", "service_role key was refused"),
  ]

  @Test(arguments: 0..<4) func refusedKeysAreConfigErrors(_ index: Int) async throws {
    let (fixture, status, code, words) = Self.refusals[index]
    try await withStarted(Rig()) { rig throws in
      rig.answer("GET", "/admin/users", status: status, fixture: fixture)
      let credential: AdminCredential =
        words == "secret key" ? .supabaseSecretKey(Self.secretKey) : .supabaseServiceRole(Self.serviceRole)
      let error = await #expect(throws: AuthError.self) {
        _ = try await rig.admin(credential).listUsers(UserListQuery())
      }
      #expect(error?.code == .configError && error?.status == status && error?.providerCode == code)
      #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
      #expect(
        error?.hint?.contains(words == "secret key" ? "SUPABASE_SECRET_KEY" : "SUPABASE_SERVICE_ROLE_KEY") == true)
      #expect(error.map(ExitStatus.forError) == 1, "answered by the server: exit 1, not a local configuration problem")
    }
  }

  @Test func missingAccountsAreNil() async throws {
    try await withStarted(Rig()) { rig throws in
      rig.answer(
        "GET", "/admin/users/00000000-0000-4000-8000-000000000000", status: 404, fixture: "error_user_not_found.json")
      #expect(try await rig.admin().user(.id("00000000-0000-4000-8000-000000000000")) == nil)
      rig.answer(
        "GET", "/admin/users/8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11", status: 404, fixture: "error_user_id_not_uuid.json")
      #expect(
        try await rig.admin().user(.id("8F3C3D0E4A8E4A539A4B0C2F6E1A7B11")) == nil, "404 validation_failed: no account")
      #expect(
        rig.lastAPIRequest?.path == "/auth/v1/admin/users/8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11",
        "32 hex digits are a UUID")
      let before = rig.server.requests.count
      #expect(try await rig.admin().user(.id("not-a-uuid")) == nil)
      #expect(rig.server.requests.count == before, "GoTrue answers 404 for a non-UUID id: not asked")
      rig.answer(
        "PUT", "/admin/users/00000000-0000-4000-8000-000000000000", status: 404, fixture: "error_user_not_found.json")
      let gone = AdminUser(id: "00000000-0000-4000-8000-000000000000", email: "gone@example.com", confirmed: false)
      let error = await #expect(throws: AuthError.self) { _ = try await rig.admin().confirmEmail(gone) }
      #expect(error?.code == .userNotFound && error?.status == 404)
    }
  }

  @Test func confirmationLinkResendAndSettings() async throws {
    try await withStarted(Rig()) { rig in
      rig.answer("POST", "/admin/generate_link", fixture: "generate_link_signup.json")
      let grace = AdminUser(id: "c1d2e3f4-0000-4a53-9a4b-0c2f6e1a7b12", email: "grace@example.com", confirmed: false)
      let link = try await rig.admin().link(.confirm, for: grace)
      #expect(link.url.hasPrefix("https://abcd.supabase.co/auth/v1/verify?token=") && link.code == "482913")
      let sent = try JSON.parse(bytes: try #require(rig.lastAPIRequest).body)
      #expect(
        sent == ["type": "signup", "email": "grace@example.com"], "signup without a password re-issues the token")

      rig.answer("POST", "/admin/generate_link", status: 422, fixture: "error_email_exists.json")
      let confirmed = await #expect(throws: AuthError.self) { _ = try await rig.admin().link(.confirm, for: grace) }
      #expect(confirmed?.code == .invalidRequest && confirmed?.message.contains("already confirmed") == true)

      rig.answer("POST", "/resend", status: 429, fixture: "error_resend_rate_limit.json")
      let limited = await #expect(throws: AuthError.self) { try await rig.admin().resendConfirmation(grace) }
      #expect(limited?.code == .rateLimited && limited?.retryAfterSeconds == 42)
      let resend = try #require(rig.lastAPIRequest)
      // The admin key, so that GoTrue's CAPTCHA check lets it through (`verifyCaptcha`).
      #expect(
        resend.header("apikey") == Self.serviceRole && resend.header("Authorization") == "Bearer " + Self.serviceRole)

      rig.answer("GET", "/settings", fixture: "settings.json")
      let settings = try await rig.admin().settings()
      #expect(
        settings == ProjectSettings(requiresEmailConfirmation: true, passwordSignInEnabled: true, mailInterval: 60))
    }
  }

  @Test func requestBodiesOfTheChanges() async throws {
    try await withStarted(Rig()) { rig in
      let id = "8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11"
      rig.answer("PUT", "/admin/users/" + id, fixture: "user_banned_google.json")
      rig.server.on("DELETE", "/auth/v1/admin/users/" + id, status: 200, json: "{}")
      let ada = AdminUser(id: id, email: "ada@example.com", confirmed: true)
      let admin = rig.admin()
      func lastBody() throws -> JSON { try JSON.parse(bytes: try #require(rig.lastAPIRequest).body) }
      _ = try await admin.confirmEmail(ada)
      #expect(try lastBody() == ["email_confirm": true])
      _ = try await admin.disable(ada, forSeconds: 90)
      #expect(try lastBody() == ["ban_duration": "90s"])
      _ = try await admin.disable(ada, forSeconds: nil)
      #expect(try lastBody() == ["ban_duration": "876000h"])
      _ = try await admin.disable(ada, forSeconds: Int.max)
      #expect(try lastBody() == ["ban_duration": "876000h"], "past what a Go duration holds")
      _ = try await admin.enable(ada)
      #expect(try lastBody() == ["ban_duration": "none"])
      _ = try await admin.setPassword(ada, to: "correct-horse-3")
      #expect(try lastBody() == ["password": "correct-horse-3"])
      try await admin.delete(ada, soft: true)
      #expect(try lastBody() == ["should_soft_delete": true])
    }
  }

  @Test func malformedAnswersAreErrorsNotCrashes() async throws {
    try await withStarted(Rig()) { rig in
      rig.server.on(
        "GET", "/auth/v1/admin/users", status: 200, json: "{\"users\":\"nope\"}", headers: [("X-Total-Count", "-5")])
      let notAList = await #expect(throws: AuthError.self) { _ = try await rig.admin().listUsers(UserListQuery()) }
      #expect(notAList?.code == .malformedResponse)
      rig.server.on(
        "GET", "/auth/v1/admin/users", status: 200, json: "{\"users\":[{\"email\":\"x@example.com\"}]}",
        headers: [("X-Total-Count", "99999999999999999999999"), ("Link", "garbage")])
      let noID = await #expect(throws: AuthError.self) { _ = try await rig.admin().listUsers(UserListQuery()) }
      #expect(noID?.code == .malformedResponse)
      rig.server.on(
        "GET", "/auth/v1/admin/users", status: 200, json: "{\"users\":[],\"aud\":\"authenticated\"}",
        headers: [("X-Total-Count", "-5"), ("Link", "garbage")])
      let empty = try await rig.admin().listUsers(UserListQuery(pageToken: "1000000000"))
      #expect(empty.users.isEmpty && empty.total == nil && empty.nextPageToken == nil)
      rig.server.on(
        "GET", "/auth/v1/admin/users/8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11", { _ in .text(404, "404 page not found") })
      let wrongURL = await #expect(throws: AuthError.self) {
        _ = try await rig.admin().user(.id("8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11"))
      }
      #expect(wrongURL?.code == .configError, "a 404 page is a wrong URL, not a missing account")
      rig.server.on(
        "GET", "/auth/v1/admin/users/8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11",
        { _ in .text(502, "<html>Bad Gateway</html>") })
      let gateway = await #expect(throws: AuthError.self) {
        _ = try await rig.admin().user(.id("8f3c3d0e-4a8e-4a53-9a4b-0c2f6e1a7b11"))
      }
      #expect(gateway?.code == .serverError)
    }
  }
}
