import AuthCore
import AuthEmulator
import AuthTestSupport
import CurlTransport
import Foundation
import JSONKit
import Providers
import Testing

/// Every `FirebaseAdminProvider` method against the embedded emulator over a real loopback socket,
/// with `Bearer owner` as the official SDKs send it to an emulator.
@Suite struct FirebaseAdminEmulatorTests {
  final class Rig: TestService, @unchecked Sendable {
    let emulator: Emulator
    let target: Target
    let admin: any AdminProvider
    let client: any AuthProvider

    /// With a `clock`, the emulator and both providers keep its time, which the test moves.
    init(projectId: String? = nil, clock: ManualTestClock? = nil) async throws {
      var config = EmulatorConfig()
      config.port = 0
      emulator = try Emulator(config: config, clock: clock ?? SystemEmulatorClock() as any EmulatorClock)
      FileDescriptorLimit.raiseSoftLimit()
      try await emulator.start()
      let host = emulator.firebaseHost
      var target = Target(
        provider: .firebase, profile: "test", url: "http://\(host)/identitytoolkit.googleapis.com/v1",
        key: "fake-api-key",
        projectId: projectId ?? config.project, firebaseEmulatorHost: host)
      if projectId == "" { target.projectId = nil }
      self.target = target
      let transport = CurlTransport()
      let clock: any Clock = clock ?? SystemClock()
      admin = AdminProviderFactory.make(target, credential: .firebaseEmulatorOwner, transport: transport, clock: clock)
      client = ProviderFactory.make(target, transport: transport, clock: clock)
    }

    func stop() async { await emulator.shutdown() }
  }

  @Test func createLookUpAndListAccounts() async throws {
    try await withStarted(Rig()) { rig in
      let created = try await rig.admin.createUser(
        email: "Ada@Example.com", password: "correct-horse-1", confirmed: false, name: "Ada")
      #expect(created.email == "ada@example.com")
      #expect(created.name == "Ada")
      #expect(created.methods == ["password"])
      #expect(!created.confirmed && !created.disabled)
      #expect(created.createdAt?.hasSuffix("Z") == true, "ms → ISO 8601: \(String(describing: created.createdAt))")

      let byEmail = try #require(try await rig.admin.user(.email("ADA@example.com")))
      #expect(byEmail.id == created.id)
      let byId = try #require(try await rig.admin.user(.id(created.id)))
      #expect(byId.email == "ada@example.com")
      #expect(try await rig.admin.user(.email("nobody@example.com")) == nil, "a missing account is nil, not an error")
      #expect(try await rig.admin.user(.id("no-such-id")) == nil)

      let confirmedNoPassword = try await rig.admin.createUser(
        email: "bob@example.com", password: nil, confirmed: true, name: nil)
      #expect(confirmedNoPassword.confirmed)
      #expect(confirmedNoPassword.methods.isEmpty, "no password: no password sign-in method")
    }
  }

  /// The error code an async call ends with (nil when it succeeds).
  static func code(_ body: () async throws -> Void) async -> ErrorCode? {
    do {
      try await body()
      return nil
    } catch let error as AuthError {
      return error.code
    } catch {
      return nil
    }
  }

  @Test func duplicateCreateIsUserAlreadyExists() async throws {
    try await withStarted(Rig()) { rig in
      _ = try await rig.admin.createUser(
        email: "ada@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      #expect(
        await Self.code {
          _ = try await rig.admin.createUser(
            email: "ada@example.com", password: "correct-horse-1", confirmed: false, name: nil)
        } == .userAlreadyExists)
    }
  }

  @Test func listPagesWithTokensAndFiltersOnTheClientSide() async throws {
    try await withStarted(Rig()) { rig in
      for index in 0..<5 {
        _ = try await rig.admin.createUser(
          email: "user\(index)@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      }
      _ = try await rig.admin.createUser(
        email: "ada@lovelace.org", password: nil, confirmed: false, name: "Ada Lovelace")
      let first = try await rig.admin.listUsers(UserListQuery(limit: 4))
      #expect(first.users.count == 4)
      #expect(first.total == 6, "accounts:query's recordsCount")
      let token = try #require(first.nextPageToken)
      let second = try await rig.admin.listUsers(UserListQuery(limit: 4, pageToken: token))
      #expect(second.users.count == 2)
      #expect(second.nextPageToken == nil)
      #expect(Set((first.users + second.users).map(\.email)).count == 6, "the pages neither overlap nor skip")

      let filtered = try await rig.admin.listUsers(UserListQuery(filter: "LOVELACE", limit: 2))
      #expect(filtered.users.map(\.email) == ["ada@lovelace.org"], "scans page after page for matches")
      #expect(filtered.total == nil)
      #expect(filtered.nextPageToken == nil)
      let byName = try await rig.admin.listUsers(UserListQuery(filter: "ada lov", limit: 50))
      #expect(byName.users.map(\.email) == ["ada@lovelace.org"])
    }
  }

  @Test func linksAreReturnedWithoutMail() async throws {
    try await withStarted(Rig()) { rig in
      let user = try await rig.admin.createUser(
        email: "ada@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      let recovery = try await rig.admin.link(.recovery, for: user)
      #expect(recovery.url.contains("mode=resetPassword"))
      let code = try #require(recovery.code)
      #expect(recovery.url.contains("oobCode=" + code))
      #expect(try await rig.admin.latestMail(to: "ada@example.com") == nil, "returnOobLink sends no mail")
      #expect(try await rig.admin.user(.email("ada@example.com"))?.pendingMail == nil)
      // The link works: the code resets the password.
      _ = try await rig.client.confirmPasswordReset(
        codeOrLink: recovery.url, email: nil, newPassword: "correct-horse-2")
      _ = try await rig.client.signIn(email: "ada@example.com", password: "correct-horse-2")

      let confirm = try await rig.admin.link(.confirm, for: user)
      #expect(confirm.url.contains("mode=verifyEmail"))
      #expect(confirm.kind == .confirm && confirm.email == "ada@example.com")
      let ghost = AdminUser(id: "x", email: "ghost@example.com", confirmed: false)
      #expect(await Self.code { _ = try await rig.admin.link(.recovery, for: ghost) } == .userNotFound)
    }
  }

  @Test func pendingMailComesFromTheOutbox() async throws {
    try await withStarted(Rig()) { rig in
      _ = try await rig.admin.createUser(
        email: "ada@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      try await rig.client.sendPasswordReset(email: "ada@example.com")
      let user = try #require(try await rig.admin.user(.email("ada@example.com")))
      #expect(user.pendingMail?.kind == "password_reset")
      #expect(user.pendingMail?.link.contains("mode=resetPassword") == true)
    }
  }

  @Test func confirmDisableEnableAndSetPassword() async throws {
    try await withStarted(Rig()) { rig in
      let user = try await rig.admin.createUser(
        email: "ada@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      #expect(try await rig.admin.confirmEmail(user).confirmed)
      #expect(try await rig.admin.user(.id(user.id))?.confirmed == true)
      #expect(await Self.code { try await rig.admin.resendConfirmation(user) } == .notSupported)

      #expect(try await rig.admin.disable(user, forSeconds: nil).disabled)
      #expect(
        await Self.code { _ = try await rig.client.signIn(email: "ada@example.com", password: "correct-horse-1") }
          == .userDisabled)
      #expect(await Self.code { _ = try await rig.admin.disable(user, forSeconds: 3600) } == .notSupported)
      #expect(try await rig.admin.enable(user).disabled == false)
      _ = try await rig.client.signIn(email: "ada@example.com", password: "correct-horse-1")

      let changed = try await rig.admin.setPassword(user, to: "correct-horse-9")
      #expect(changed.methods == ["password"])
      #expect(
        await Self.code { _ = try await rig.client.signIn(email: "ada@example.com", password: "correct-horse-1") }
          == .invalidCredentials)
      _ = try await rig.client.signIn(email: "ada@example.com", password: "correct-horse-9")
      #expect(await Self.code { _ = try await rig.admin.setPassword(user, to: "short") } == .weakPassword)
    }
  }

  @Test func signOutRevokesRefreshTokens() async throws {
    let clock = ManualTestClock()
    try await withStarted(Rig(clock: clock)) { rig in
      let user = try await rig.admin.createUser(
        email: "ada@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      let session = try await rig.client.signIn(email: "ada@example.com", password: "correct-horse-1")
      // validSince has a one-second resolution: a token issued in the same second stays valid.
      clock.advance(1)
      try await rig.admin.signOut(user)
      #expect(await Self.code { _ = try await rig.client.user(of: session) } == .sessionExpired)
    }
  }

  @Test func deleteRemovesTheAccount() async throws {
    try await withStarted(Rig()) { rig in
      let user = try await rig.admin.createUser(
        email: "ada@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      #expect(await Self.code { try await rig.admin.delete(user, soft: true) } == .notSupported)
      #expect(try await rig.admin.user(.id(user.id)) != nil, "a refused soft delete changes nothing")
      try await rig.admin.delete(user, soft: false)
      #expect(try await rig.admin.user(.id(user.id)) == nil)
      #expect(await Self.code { try await rig.admin.delete(user, soft: false) } == .userNotFound)
      #expect(await Self.code { _ = try await rig.admin.enable(user) } == .userNotFound)
    }
  }

  @Test func settingsAndMissingProject() async throws {
    try await withStarted(Rig()) { rig in
      let settings = try await rig.admin.settings()
      #expect(settings.requiresEmailConfirmation == false, "Firebase never requires a confirmed e-mail to sign in")
      #expect(settings.passwordSignInEnabled == true, "the emulator serves the v2 signIn.email config")

      try await withStarted(Rig(projectId: "")) { noProject throws in
        #expect(await Self.code { _ = try await noProject.admin.user(.email("ada@example.com")) } == .configError)
        #expect(try await noProject.admin.settings().requiresEmailConfirmation == false, "settings never fail")
      }
    }
  }
}
