import AuthCore
import AuthTestSupport
import CurlTransport
import Foundation
import HTTPServerKit
import JSONKit
import Providers
import Testing

/// `FirebaseAdminProvider` against recorded production answers (a fixture server standing in for
/// identitytoolkit.googleapis.com): the requests it sends and how it reads the answers.
@Suite struct FirebaseAdminReplayTests {
  static let project = "demo-authsh"
  static let token = "ya29.a0AfB_test-access-token"
  static let principal = "the service account authsh@demo-authsh.iam.gserviceaccount.com"
  /// `Fixtures/firebase/NAME` of this test target (the fixtures sit one folder up).
  static func fixture(_ name: String, file: String = #filePath) -> String {
    let parent = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
    return Fixture.text("firebase/" + name, file: parent.appendingPathComponent("Replay.swift").path)
  }

  static func accounts(_ op: String) -> String {
    "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:\(op)"
  }

  final class Rig: TestService, @unchecked Sendable {
    let server = FixtureServer()
    let clock = ManualClock()
    var admin: FirebaseAdminProvider!

    init() async throws {
      try await server.start()
      // As production (no emulator host), with the fixture server's address as the API base.
      let target = Target(
        provider: .firebase, profile: "prod", url: server.baseURL + "/identitytoolkit.googleapis.com/v1",
        key: "AIza-key",
        projectId: nil)
      admin = FirebaseAdminProvider(
        target: target, tokens: StaticAccessToken(token: FirebaseAdminReplayTests.token), transport: CurlTransport(),
        clock: clock, trace: nil, projectId: FirebaseAdminReplayTests.project,
        principal: FirebaseAdminReplayTests.principal)
    }

    func answer(_ path: String, status: Int = 200, _ fixture: String, method: String = "POST") {
      server.on(method, path, status: status, json: FirebaseAdminReplayTests.fixture(fixture))
    }

    /// The JSON body of the last request to `path`.
    func body(_ path: String) throws -> JSON {
      let request = try #require(server.requests.last { $0.path == path })
      #expect(request.header("Authorization") == "Bearer " + FirebaseAdminReplayTests.token)
      return try JSON.parse(bytes: request.body)
    }

    func stop() async { await server.stop() }
  }

  static func failure(_ body: () async throws -> Void) async -> AuthError? {
    do {
      try await body()
      return nil
    } catch let error as AuthError {
      return error
    } catch {
      return AuthError(.providerError, message: "\(error)")
    }
  }

  @Test func lookupReadsAProductionRecord() async throws {
    try await withStarted(Rig()) { rig in
      rig.answer(Self.accounts("lookup"), "admin_lookup.json")
      let user = try #require(try await rig.admin.user(.email("Ada@Example.com")))
      #expect(try rig.body(Self.accounts("lookup")) == ["email": ["Ada@Example.com"]])
      #expect(user.id == "qZ3VbX9yLmTq8RfKpW2hN7cD4sE1")
      #expect(user.email == "ada@example.com")
      #expect(user.confirmed && user.disabled)
      #expect(user.methods == ["password", "google", "github"])
      #expect(user.name == "Ada Lovelace")
      #expect(user.claims == ["role": "admin", "tier": 2] && user.metadata == nil)
      #expect(user.createdAt == "2026-01-01T00:00:00Z")
      #expect(user.lastSignInAt == "2026-01-02T00:00:00Z")
      #expect(user.pendingMail == nil)
      #expect(rig.server.requests.count == 1, "no outbox read on a real backend")

      _ = try await rig.admin.user(.id("qZ3VbX9yLmTq8RfKpW2hN7cD4sE1"))
      #expect(try rig.body(Self.accounts("lookup")) == ["localId": ["qZ3VbX9yLmTq8RfKpW2hN7cD4sE1"]])
      rig.answer(Self.accounts("lookup"), "admin_lookup_none.json")
      #expect(try await rig.admin.user(.email("nobody@example.com")) == nil)
    }
  }

  @Test func listFollowsNextPageToken() async throws {
    try await withStarted(Rig()) { rig in
      rig.server.on("GET", Self.accounts("batchGet")) { request in
        let page = request.query("nextPageToken") == nil ? "admin_batchGet_page1.json" : "admin_batchGet_page2.json"
        return ServerResponse(
          status: 200, headers: [("Content-Type", "application/json")],
          body: Array(FirebaseAdminReplayTests.fixture(page).utf8))
      }
      rig.server.on("POST", Self.accounts("query"), status: 200, json: #"{"recordsCount": "3"}"#)
      let first = try await rig.admin.listUsers(UserListQuery(limit: 2))
      let firstRequest = try #require(rig.server.requests.first { $0.path == Self.accounts("batchGet") })
      #expect(firstRequest.query("maxResults") == "2")
      #expect(firstRequest.query("nextPageToken") == nil)
      #expect(first.users.map(\.methods) == [["apple"], ["phone"]])
      #expect(first.users[1].email == "", "a phone-only account has no e-mail")
      #expect(first.total == 3)
      let token = try #require(first.nextPageToken)
      #expect(token == "AAAAAAAAABQxWGM4V3czVGdFNm5KcjB1UHE1eUhiS2QyZkF6")
      #expect(try rig.body(Self.accounts("query")) == ["returnUserInfo": false])

      let second = try await rig.admin.listUsers(UserListQuery(limit: 2, pageToken: token))
      #expect(rig.server.requests.last { $0.path == Self.accounts("batchGet") }?.query("nextPageToken") == token)
      #expect(second.users.map(\.email) == ["ada@example.com"])
      #expect(second.nextPageToken == nil)

      rig.server.reset()
      rig.server.on("GET", Self.accounts("batchGet")) { request in
        let page = request.query("nextPageToken") == nil ? "admin_batchGet_page1.json" : "admin_batchGet_page2.json"
        return ServerResponse(
          status: 200, headers: [("Content-Type", "application/json")],
          body: Array(FirebaseAdminReplayTests.fixture(page).utf8))
      }
      let filtered = try await rig.admin.listUsers(UserListQuery(filter: "ADA@", limit: 2))
      #expect(filtered.users.map(\.email) == ["ada@example.com"], "the filter reads on past a page without matches")
      #expect(filtered.total == nil && filtered.nextPageToken == nil)
      #expect(rig.server.requests.filter { $0.path == Self.accounts("batchGet") }.count == 2)
      #expect(!rig.server.requests.contains { $0.path == Self.accounts("query") }, "no count for a filtered list")
    }
  }

  @Test("a full last page comes with a token production would hand out: one account ahead says there is no next page")
  func aFullLastPageHasNoNextPage() async throws {
    try await withStarted(Rig()) { rig in
      rig.server.on("GET", Self.accounts("batchGet")) { request in
        // Two accounts, and a token after them that leads to an empty page.
        let body =
          request.query("nextPageToken") == nil
          ? #"{"kind":"identitytoolkit#DownloadAccountResponse","users":[{"localId":"a","email":"a@example.com"},{"localId":"b","email":"b@example.com"}],"nextPageToken":"AAAB"}"#
          : #"{"kind":"identitytoolkit#DownloadAccountResponse"}"#
        return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
      }
      rig.server.on("POST", Self.accounts("query"), status: 200, json: #"{"recordsCount": "2"}"#)
      let page = try await rig.admin.listUsers(UserListQuery(limit: 2))
      #expect(page.users.map(\.email) == ["a@example.com", "b@example.com"])
      #expect(page.nextPageToken == nil, "no promise of an empty page")
      let peek = try #require(rig.server.requests.last { $0.path == Self.accounts("batchGet") })
      #expect(peek.query("maxResults") == "1" && peek.query("nextPageToken") == "AAAB")
    }
  }

  @Test("a server that repeats a page token stops the filtered scan with malformed_response, not a loop")
  func aRepeatedPageTokenStopsTheScan() async throws {
    try await withStarted(Rig()) { rig throws in
      rig.server.on(
        "GET", Self.accounts("batchGet"), status: 200,
        json: #"{"users":[{"localId":"a","email":"a@example.com"}],"nextPageToken":"SAME"}"#)
      let error = await Self.failure { _ = try await rig.admin.listUsers(UserListQuery(filter: "nobody", limit: 50)) }
      #expect(error?.code == .malformedResponse)
      #expect(error?.message.contains("repeated a page token") == true)
      #expect(
        rig.server.requests.filter { $0.path == Self.accounts("batchGet") }.count == 2, "stopped at the first repeat")
    }
  }

  @Test(
    "--max-pages stops a filtered scan after N pages, says how far it got and where to go on; progress after each page")
  func maxPagesStopsTheScanAndSaysHowFar() async throws {
    try await withStarted(Rig()) { rig in
      rig.server.on("GET", Self.accounts("batchGet")) { request in
        // An endless project: every page one account that does not match, and a fresh token.
        let number = Int(request.query("nextPageToken")?.dropFirst() ?? "0") ?? 0
        let body =
          #"{"users":[{"localId":"u\#(number)","email":"u\#(number)@example.com"}],"nextPageToken":"P\#(number + 1)"}"#
        return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
      }
      let seen = Guarded<[ScanProgress]>([])
      var query = UserListQuery(filter: "u1@", limit: 50, maxPages: 3)
      query.scanProgress = { progress in seen.update { $0.append(progress) } }
      let page = try await rig.admin.listUsers(query)
      #expect(rig.server.requests.filter { $0.path == Self.accounts("batchGet") }.count == 3)
      #expect(page.stoppedScan == ScanProgress(pages: 3, scanned: 3, matches: 1))
      #expect(page.users.map(\.email) == ["u1@example.com"])
      #expect(page.nextPageToken == "P3")
      #expect(seen[\.self].map(\.pages) == [1, 2, 3])
    }
  }

  @Test func linkAsksForTheLinkAndTakesTheCodeFromIt() async throws {
    try await withStarted(Rig()) { rig in
      rig.answer(Self.accounts("sendOobCode"), "admin_sendOobCode_link.json")
      let user = AdminUser(id: "qZ3VbX9yLmTq8RfKpW2hN7cD4sE1", email: "ada@example.com", confirmed: true)
      let link = try await rig.admin.link(.recovery, for: user)
      #expect(
        try rig.body(Self.accounts("sendOobCode")) == [
          "requestType": "PASSWORD_RESET", "email": "ada@example.com", "returnOobLink": true,
        ])
      #expect(link.url.hasPrefix("https://demo-authsh.firebaseapp.com/__/auth/action?mode=resetPassword"))
      #expect(link.code == "Zk9xR2hQbU5vVnF3RXJ0WXVJb1A")
      _ = try await rig.admin.link(.confirm, for: user)
      #expect(try rig.body(Self.accounts("sendOobCode"))["requestType"] == "VERIFY_EMAIL")
    }
  }

  @Test func updatesSendTheAdminSDKsBodies() async throws {
    try await withStarted(Rig()) { rig in
      rig.answer(Self.accounts("lookup"), "admin_lookup.json")
      rig.server.on(
        "POST", Self.accounts("update"), status: 200,
        json: #"{"kind": "identitytoolkit#SetAccountInfoResponse", "localId": "qZ3VbX9yLmTq8RfKpW2hN7cD4sE1"}"#)
      let user = AdminUser(id: "qZ3VbX9yLmTq8RfKpW2hN7cD4sE1", email: "ada@example.com", confirmed: false)
      let id: JSON = "qZ3VbX9yLmTq8RfKpW2hN7cD4sE1"
      _ = try await rig.admin.confirmEmail(user)
      #expect(try rig.body(Self.accounts("update")) == ["localId": id, "emailVerified": true])
      _ = try await rig.admin.disable(user, forSeconds: nil)
      #expect(try rig.body(Self.accounts("update")) == ["localId": id, "disableUser": true])
      _ = try await rig.admin.enable(user)
      #expect(try rig.body(Self.accounts("update")) == ["localId": id, "disableUser": false])
      _ = try await rig.admin.setPassword(user, to: "correct-horse-9")
      #expect(try rig.body(Self.accounts("update")) == ["localId": id, "password": "correct-horse-9"])
      try await rig.admin.signOut(user)
      #expect(
        try rig.body(Self.accounts("update")) == ["localId": id, "validSince": "1767225600"],
        "validSince = now, in seconds")
      rig.server.on(
        "POST", Self.accounts("delete"), status: 200, json: #"{"kind": "identitytoolkit#DeleteAccountResponse"}"#)
      try await rig.admin.delete(user, soft: false)
      #expect(try rig.body(Self.accounts("delete")) == ["localId": id])
      rig.server.on(
        "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts", status: 200,
        json:
          #"{"kind": "identitytoolkit#SignupNewUserResponse", "email": "ada@example.com", "localId": "qZ3VbX9yLmTq8RfKpW2hN7cD4sE1"}"#
      )
      _ = try await rig.admin.createUser(
        email: "ada@example.com", password: "correct-horse-1", confirmed: true, name: "Ada Lovelace")
      #expect(
        try rig.body("/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts") == [
          "email": "ada@example.com", "emailVerified": true, "password": "correct-horse-1",
          "displayName": "Ada Lovelace",
        ])
    }
  }

  @Test(arguments: [
    ("admin_error_PERMISSION_DENIED.json", 403, "it lacks permission"),
    ("admin_error_INSUFFICIENT_PERMISSION.json", 400, "it lacks permission"),
    ("admin_error_CREDENTIAL_MISMATCH.json", 400, "the credential belongs to another project"),
    ("admin_error_UNAUTHENTICATED.json", 401, "the access token was not accepted"),
  ])
  func credentialProblemsAreConfigErrors(_ fixture: String, _ status: Int, _ reason: String) async throws {
    try await withStarted(Rig()) { rig in
      rig.answer(Self.accounts("lookup"), status: status, fixture)
      let error = try #require(await Self.failure { _ = try await rig.admin.user(.email("ada@example.com")) })
      #expect(error.code == .configError)
      #expect(error.status == status)
      #expect(error.message.contains("project 'demo-authsh'"))
      #expect(error.message.contains("authsh@demo-authsh.iam.gserviceaccount.com"))
      #expect(error.message.contains(reason), "\(error.message)")
      #expect(error.hint != nil)
    }
  }

  @Test func userNotFoundOnUpdateAndDelete() async throws {
    try await withStarted(Rig()) { rig throws in
      rig.answer(Self.accounts("update"), status: 400, "error_USER_NOT_FOUND.json")
      rig.answer(Self.accounts("delete"), status: 400, "error_USER_NOT_FOUND.json")
      rig.answer(Self.accounts("sendOobCode"), status: 400, "error_EMAIL_NOT_FOUND.json")
      let ghost = AdminUser(id: "gone", email: "gone@example.com", confirmed: false)
      #expect(await Self.failure { _ = try await rig.admin.disable(ghost, forSeconds: nil) }?.code == .userNotFound)
      #expect(await Self.failure { try await rig.admin.signOut(ghost) }?.code == .userNotFound)
      #expect(await Self.failure { try await rig.admin.delete(ghost, soft: false) }?.code == .userNotFound)
      #expect(await Self.failure { _ = try await rig.admin.link(.recovery, for: ghost) }?.code == .userNotFound)
    }
  }

  @Test func settingsReadTheV2ConfigAndNeverFail() async throws {
    try await withStarted(Rig()) { rig in
      let config = "/identitytoolkit.googleapis.com/admin/v2/projects/\(Self.project)/config"
      rig.answer(config, "admin_config.json", method: "GET")
      let settings = try await rig.admin.settings()
      #expect(settings.passwordSignInEnabled == true)
      #expect(settings.requiresEmailConfirmation == false)
      rig.answer(config, status: 403, "admin_error_PERMISSION_DENIED.json", method: "GET")
      #expect(try await rig.admin.settings() == ProjectSettings(requiresEmailConfirmation: false))
      // `passwordRequired: false` lets e-mail links sign in too; passwords still work (the API's own
      // description: "email sign-in can be performed with password or via email link sign-in").
      rig.server.on(
        "GET", config, status: 200, json: #"{"signIn": {"email": {"enabled": true, "passwordRequired": false}}}"#)
      #expect(try await rig.admin.settings().passwordSignInEnabled == true)
      // Google leaves false booleans out: `enabled` missing is false, and so is an `email` left out.
      rig.server.on("GET", config, status: 200, json: #"{"signIn": {"email": {"passwordRequired": true}}}"#)
      #expect(try await rig.admin.settings().passwordSignInEnabled == false)
      rig.server.on("GET", config, status: 200, json: #"{"signIn": {"allowDuplicateEmails": true}}"#)
      #expect(try await rig.admin.settings().passwordSignInEnabled == false)
      rig.server.on("GET", config, status: 200, json: #"{"name": "projects/demo-authsh/config"}"#)
      #expect(try await rig.admin.settings().passwordSignInEnabled == nil, "no signIn at all: not told")
    }
  }

  @Test("a tenant: every admin call under projects/{p}/tenants/{t}, settings from the tenant (allowPasswordSignup)")
  func tenantPaths() async throws {
    let server = FixtureServer()
    try await server.start()
    try await withStarted(server) { server in
      var target = Target(
        provider: .firebase, profile: "prod", url: server.baseURL + "/identitytoolkit.googleapis.com/v1",
        key: "AIza-key",
        projectId: Self.project)
      target.tenantId = "shop-eu-x7k2p"
      let admin = FirebaseAdminProvider(
        target: target, tokens: StaticAccessToken(token: Self.token), transport: CurlTransport(), clock: ManualClock(),
        trace: nil, principal: Self.principal)
      let tenantAccounts = "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/tenants/shop-eu-x7k2p/accounts"
      server.on("POST", tenantAccounts + ":lookup", status: 200, json: Self.fixture("admin_lookup_tenant.json"))
      let user = try #require(try await admin.user(.email("ada@example.com")))
      #expect(user.email == "ada@example.com")
      #expect(server.requests.last?.path == tenantAccounts + ":lookup")
      server.on("POST", tenantAccounts + ":update", status: 200, json: #"{"localId": "tenantUser1"}"#)
      _ = try? await admin.enable(user)
      #expect(server.requests.contains { $0.path == tenantAccounts + ":update" })
      let tenantResource = "/identitytoolkit.googleapis.com/admin/v2/projects/\(Self.project)/tenants/shop-eu-x7k2p"
      server.on("GET", tenantResource, status: 200, json: Self.fixture("admin_tenant.json"))
      #expect(try await admin.settings().passwordSignInEnabled == true)
      server.on(
        "GET", tenantResource, status: 200,
        json: #"{"name": "projects/demo-authsh/tenants/shop-eu-x7k2p", "displayName": "Shop-EU"}"#)
      #expect(try await admin.settings().passwordSignInEnabled == false, "allowPasswordSignup left out: false")
    }
  }

  @Test func malformedAnswersAreMalformedResponse() async throws {
    try await withStarted(Rig()) { rig throws in
      rig.server.on("POST", Self.accounts("lookup"), status: 200, json: #"{"users": [{"email": "ada@example.com"}]}"#)
      #expect(
        await Self.failure { _ = try await rig.admin.user(.email("ada@example.com")) }?.code == .malformedResponse)
      rig.server.on("POST", Self.accounts("lookup"), status: 200, json: #"{"users": [7]}"#)
      #expect(
        await Self.failure { _ = try await rig.admin.user(.email("ada@example.com")) }?.code == .malformedResponse)
      rig.server.on("POST", Self.accounts("sendOobCode"), status: 200, json: #"{"email": "ada@example.com"}"#)
      let user = AdminUser(id: "x", email: "ada@example.com", confirmed: false)
      #expect(await Self.failure { _ = try await rig.admin.link(.recovery, for: user) }?.code == .malformedResponse)
    }
  }
}
