import AuthCore
import AuthEmulator
import AuthTestSupport
import CurlTransport
import Foundation
import JSONKit
import Providers
import Testing

/// Firebase providers with a tenant (`--tenant`, the profile's `tenant`) against the emulator over a
/// real socket: every client and admin call reaches the tenant's user store, so `diagnose` finds a
/// tenant's user; the project's v2 `signIn.email` config and `user signout`'s real effect.
@Suite struct FirebaseTenantEmulatorTests {
  final class Rig: TestService, @unchecked Sendable {
    let emulator: Emulator
    let transport = CurlTransport()
    /// The providers' time: the emulator's when the test moves it.
    let clock: any Clock

    /// With a `clock`, the emulator and the providers keep its time, which the test moves.
    init(likeProduction: Bool = false, clock: ManualTestClock? = nil) async throws {
      var config = EmulatorConfig()
      config.port = 0
      config.likeProduction = likeProduction
      emulator = try Emulator(config: config, clock: clock ?? SystemEmulatorClock() as any EmulatorClock)
      self.clock = clock ?? SystemClock()
      FileDescriptorLimit.raiseSoftLimit()
      try await emulator.start()
    }

    func target(tenant: String? = nil) -> Target {
      let host = emulator.firebaseHost
      var target = Target(
        provider: .firebase, profile: "test", url: "http://\(host)/identitytoolkit.googleapis.com/v1",
        key: "fake-api-key",
        projectId: emulator.config.project, firebaseEmulatorHost: host)
      target.tenantId = tenant
      return target
    }

    func admin(tenant: String? = nil) -> any AdminProvider {
      AdminProviderFactory.make(
        target(tenant: tenant), credential: .firebaseEmulatorOwner, transport: transport, clock: clock)
    }

    func client(tenant: String? = nil) -> any AuthProvider {
      ProviderFactory.make(target(tenant: tenant), transport: transport, clock: clock)
    }

    /// `POST /v2/projects/{p}/tenants` as the management API (Bearer owner).
    func createTenant(_ body: JSON) async throws -> String {
      let url = try #require(
        URL(string: emulator.baseURL + "/identitytoolkit.googleapis.com/v2/projects/\(emulator.config.project)/tenants")
      )
      let response = try await transport.send(
        HTTPRequest(
          method: "POST", url: url, headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")],
          body: body.bytes, timeout: 60))
      let name = try #require(try JSON.parse(bytes: response.body)["name"]?.string)
      return String(try #require(name.split(separator: "/").last))
    }

    func stop() async { await emulator.shutdown() }
  }

  @Test("sign-up, sign-in, lookup, refresh and reset of a tenant's user; the project does not see it")
  func clientCalls() async throws {
    try await withStarted(Rig()) { rig in
      let tenant = try await rig.createTenant(["displayName": "Shop-EU", "allowPasswordSignup": true])
      let client = rig.client(tenant: tenant)
      guard
        case .signedIn(let session) = try await client.signUp(
          email: "ada@example.com", password: "correct-horse-1", name: "Ada")
      else {
        Issue.record("no session")
        return
      }
      #expect(JWTClaims.decode(session.accessToken)?["firebase"]?["tenant"] == .string(tenant))
      #expect(try await client.user(of: session).email == "ada@example.com")
      let refreshed = try await client.refresh(session)
      #expect(JWTClaims.decode(refreshed.accessToken)?["firebase"]?["tenant"] == .string(tenant))
      _ = try await client.signIn(email: "ada@example.com", password: "correct-horse-1")
      try await client.sendPasswordReset(email: "ada@example.com")
      let mail = try #require(try await client.latestMail(to: "ada@example.com"))
      _ = try await client.confirmPasswordReset(codeOrLink: mail.link, email: nil, newPassword: "another-horse-2")
      _ = try await client.signIn(email: "ada@example.com", password: "another-horse-2")
      let outside = await #expect(throws: AuthError.self) {
        _ = try await rig.client().signIn(email: "ada@example.com", password: "another-horse-2")
      }
      #expect(outside?.providerCode == "EMAIL_NOT_FOUND")
    }
  }

  @Test("admin calls and diagnose reach the tenant's users; without the tenant diagnose says no_account")
  func adminAndDiagnose() async throws {
    try await withStarted(Rig()) { rig in
      let tenant = try await rig.createTenant(["displayName": "Shop-EU", "allowPasswordSignup": true])
      let admin = rig.admin(tenant: tenant)
      let created = try await admin.createUser(
        email: "bob@example.com", password: "correct-horse-1", confirmed: true, name: "Bob")
      #expect(try await admin.user(.email("bob@example.com"))?.id == created.id)
      #expect(try await admin.user(.id(created.id))?.email == "bob@example.com")
      #expect(try await admin.listUsers(UserListQuery()).users.map(\.email) == ["bob@example.com"])
      let link = try await admin.link(.recovery, for: created)
      #expect(link.url.contains("tenantId=\(tenant)"))
      let disabled = try await admin.disable(created, forSeconds: nil)
      #expect(disabled.disabled)
      let settings = try await admin.settings()
      #expect(settings.passwordSignInEnabled == true)

      let now = Int(Date().timeIntervalSince1970)
      let found = Diagnosis.evaluate(
        email: "bob@example.com", user: try await admin.user(.email("bob@example.com")), provider: .firebase,
        settings: settings, now: now)
      #expect(found.findings.map(\.code) == ["disabled"])
      let projectLevel = try await rig.admin().user(.email("bob@example.com"))
      #expect(projectLevel == nil, "the project's own store has no such user")

      let closed = try await rig.createTenant(["displayName": "Closed"])
      #expect(try await rig.admin(tenant: closed).settings().passwordSignInEnabled == false)
    }
  }

  @Test("the emulator's v2 signIn.email: passwordRequired false still allows passwords; enabled false turns them off")
  func emailSignInConfig() async throws {
    try await withStarted(Rig()) { rig in
      let admin = rig.admin()
      #expect(try await admin.settings().passwordSignInEnabled == true)
      func patch(_ mask: String, _ email: JSON) async throws {
        let url = try #require(
          URL(
            string: rig.emulator.baseURL
              + "/identitytoolkit.googleapis.com/v2/projects/\(rig.emulator.config.project)/config?updateMask=\(mask)"))
        let body: JSON = ["signIn": ["email": email]]
        _ = try await rig.transport.send(
          HTTPRequest(
            method: "PATCH", url: url,
            headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")],
            body: body.bytes, timeout: 60))
      }
      try await patch("signIn.email.passwordRequired", ["passwordRequired": false])
      #expect(try await admin.settings().passwordSignInEnabled == true, "e-mail links as well as passwords")
      try await patch("signIn.email.enabled", ["enabled": false])
      #expect(try await admin.settings().passwordSignInEnabled == false)
      let diagnosis = Diagnosis.evaluate(
        email: "x@example.com",
        user: AdminUser(id: "x", email: "x@example.com", confirmed: true, methods: ["password"]),
        provider: .firebase, settings: try await admin.settings(), now: 0)
      #expect(diagnosis.findings.first?.code == "password_sign_in_disabled")
    }
  }

  @Test("signOut ends refresh tokens like production only: the provider says which")
  func signOutEffect() async throws {
    for likeProduction in [false, true] {
      let clock = ManualTestClock()
      try await withStarted(Rig(likeProduction: likeProduction, clock: clock)) { rig in
        let admin = rig.admin()
        let user = try await admin.createUser(
          email: "s@example.com", password: "correct-horse-1", confirmed: true, name: nil)
        let session = try await rig.client().signIn(email: "s@example.com", password: "correct-horse-1")
        clock.advance(1)  // validSince has whole seconds
        try await admin.signOut(user)
        #expect(await admin.signOutEndsRefreshTokens() == likeProduction)
        do {
          _ = try await rig.client().refresh(session)
          #expect(!likeProduction, "the default mode keeps refresh tokens working, as the official emulator")
        } catch let error as AuthError {
          #expect(likeProduction, "only like production are they ended: \(error)")
        }
      }
    }
  }
}
