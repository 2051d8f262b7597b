import AuthCore
import AuthEmulator
import AuthTestSupport
import CurlTransport
import Foundation
import JSONKit
import Providers
import Testing

/// `SupabaseAdminProvider` against the embedded emulator over a real loopback socket: every
/// method, with the service_role key as the official server-side clients send it.
@Suite struct SupabaseAdminEmulatorTests {
  final class Rig: TestService, @unchecked Sendable {
    let emulator: Emulator
    let target: Target
    let transport: any HTTPTransport = CurlTransport()

    init(confirmEmail: Bool = true, captcha: Bool = false) async throws {
      var config = EmulatorConfig()
      config.port = 0
      config.confirmEmail = confirmEmail
      config.captcha = captcha
      emulator = try Emulator(config: config)
      FileDescriptorLimit.raiseSoftLimit()
      try await emulator.start()
      target = Target(
        provider: .supabase, profile: "default", url: emulator.baseURL + "/auth/v1", key: emulator.anonKey)
    }

    func admin(_ credential: AdminCredential? = nil) -> SupabaseAdminProvider {
      SupabaseAdminProvider(
        target: target, credential: credential ?? .supabaseServiceRole(emulator.serviceRoleKey), transport: transport,
        clock: SystemClock(), trace: nil)
    }

    var client: SupabaseProvider {
      SupabaseProvider(target: target, transport: transport, clock: SystemClock(), trace: nil)
    }

    func stop() async { await emulator.shutdown() }
  }

  @Test func lookUpByEmailAndIdAndDecodeTheAccount() async throws {
    try await withStarted(Rig(confirmEmail: false)) { rig in
      let admin = rig.admin()
      let created = try await admin.createUser(
        email: "Ada@Example.com", password: "correct-horse-1", confirmed: false, name: "Ada Lovelace")
      #expect(created.email == "ada@example.com")
      #expect(!created.confirmed && created.confirmedAt == nil)
      #expect(created.methods == ["password"])
      #expect(created.name == "Ada Lovelace")
      #expect(created.metadata?["full_name"]?.string == "Ada Lovelace")
      // A second account whose address contains the first one's as a substring, with a `+`.
      _ = try await admin.createUser(email: "xada+tag@example.com", password: nil, confirmed: true, name: nil)

      let byEmail = try #require(try await admin.user(.email("ADA@example.COM")))
      #expect(byEmail.id == created.id, "the exact address is picked from the substring matches")
      #expect(byEmail.createdAt != nil && byEmail.lastSignInAt == nil && !byEmail.disabled)
      let tagged = try #require(try await admin.user(.email("xada+tag@example.com")))
      #expect(tagged.confirmed && tagged.confirmedAt != nil, "`+` reaches the server as a plus")
      #expect(try await admin.user(.email("da@example.com")) == nil, "a substring is not an account")
      #expect(try await admin.user(.email("nobody@example.com")) == nil)

      let byID = try #require(try await admin.user(.id(created.id.uppercased())))
      #expect(byID.email == "ada@example.com")
      #expect(try await admin.user(.id("not-a-uuid")) == nil)
      #expect(try await admin.user(.id(UUID().uuidString)) == nil)

      // After a sign-in the admin view shows it, and the lookup itself signs nobody in.
      _ = try await admin.confirmEmail(created)
      _ = try await rig.client.signIn(email: "ada@example.com", password: "correct-horse-1")
      let after = try #require(try await admin.user(.email("ada@example.com")))
      #expect(after.lastSignInAt != nil)
    }
  }

  @Test func listPagesNewestFirstWithTotal() async throws {
    try await withStarted(Rig()) { rig in
      let admin = rig.admin()
      for index in 1...3 {
        _ = try await admin.createUser(
          email: "user\(index)@example.com", password: nil, confirmed: true, name: "User \(index)")
      }
      let first = try await admin.listUsers(UserListQuery(limit: 2))
      #expect(first.total == 3)
      #expect(first.users.map(\.email) == ["user3@example.com", "user2@example.com"], "newest first")
      #expect(first.users.allSatisfy { $0.methods == ["password"] }, "methods come from app_metadata in list answers")
      #expect(first.nextPageToken == "2")
      let second = try await admin.listUsers(UserListQuery(limit: 2, pageToken: first.nextPageToken))
      #expect(second.users.map(\.email) == ["user1@example.com"])
      #expect(second.nextPageToken == nil)
      let filtered = try await admin.listUsers(UserListQuery(filter: "user2"))
      #expect(filtered.users.map(\.email) == ["user2@example.com"] && filtered.total == 1)
      await #expect(throws: AuthError.self) { _ = try await admin.listUsers(UserListQuery(pageToken: "abc")) }
    }
  }

  @Test func confirmationLinkResendAndConfirm() async throws {
    try await withStarted(Rig()) { rig in
      let admin = rig.admin()
      var user = try await admin.createUser(
        email: "grace@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      let settings = try await admin.settings()
      #expect(
        settings == ProjectSettings(requiresEmailConfirmation: true, passwordSignInEnabled: true, mailInterval: 60))

      try await admin.resendConfirmation(user)
      user = try #require(try await admin.user(.email("grace@example.com")))
      #expect(user.pendingMail?.kind == "confirm_email", "the emulator's outbox shows the mail")
      #expect(user.confirmationSentAt != nil)
      let again = await #expect(throws: AuthError.self) { try await admin.resendConfirmation(user) }
      #expect(again?.code == .rateLimited && again?.retryAfterSeconds != nil, "the 60 s resend window")

      let link = try await admin.link(.confirm, for: user)
      #expect(link.url.contains("type=signup") && link.email == "grace@example.com")
      #expect(link.code?.count == 6)
      let unconfirmed = await #expect(throws: AuthError.self) {
        _ = try await rig.client.signIn(email: "grace@example.com", password: "correct-horse-1")
      }
      #expect(unconfirmed?.code == .emailNotConfirmed)

      let confirmed = try await admin.confirmEmail(user)
      #expect(confirmed.confirmed && confirmed.confirmedAt != nil)
      _ = try await rig.client.signIn(email: "grace@example.com", password: "correct-horse-1")
      let noLink = await #expect(throws: AuthError.self) { _ = try await admin.link(.confirm, for: confirmed) }
      #expect(noLink?.code == .invalidRequest && noLink?.message.contains("already confirmed") == true)
      let noResend = await #expect(throws: AuthError.self) { try await admin.resendConfirmation(confirmed) }
      #expect(noResend?.code == .invalidRequest)

      let recovery = try await admin.link(.recovery, for: confirmed)
      #expect(recovery.url.contains("type=recovery") && recovery.kind == .recovery)
      let session = try await rig.client.confirmPasswordReset(
        codeOrLink: recovery.url, email: nil, newPassword: "correct-horse-2")
      #expect(session.user.email == "grace@example.com", "the generated recovery link works")
    }
  }

  @Test func disableEnableAndSetPassword() async throws {
    try await withStarted(Rig(confirmEmail: false)) { rig in
      let admin = rig.admin()
      let user = try await admin.createUser(
        email: "alan@example.com", password: "correct-horse-1", confirmed: true, name: nil)

      let before = try await rig.client.signIn(email: "alan@example.com", password: "correct-horse-1")
      let banned = try await admin.disable(user, forSeconds: 3600)
      #expect(banned.disabled)
      let until = try #require(banned.disabledUntil.flatMap { ISO8601DateFormatter().date(from: $0) })
      #expect(abs(until.timeIntervalSinceNow - 3600) < 300)
      let refused = await #expect(throws: AuthError.self) {
        _ = try await rig.client.signIn(email: "alan@example.com", password: "correct-horse-1")
      }
      #expect(refused?.code == .userDisabled)
      let forever = try await admin.disable(user, forSeconds: nil)
      #expect(forever.disabled && forever.disabledUntil == nil, "a ban with no end")
      await #expect(throws: AuthError.self) { _ = try await admin.disable(user, forSeconds: 0) }

      await #expect(throws: AuthError.self, "no refresh while banned") { _ = try await rig.client.refresh(before) }
      let enabled = try await admin.enable(user)
      #expect(!enabled.disabled && enabled.disabledUntil == nil)
      _ = try await rig.client.refresh(before)  // a ban keeps the sessions: the refresh token works again
      let session = try await rig.client.signIn(email: "alan@example.com", password: "correct-horse-1")

      let changed = try await admin.setPassword(user, to: "correct-horse-2")
      #expect(changed.id == user.id)
      let ended = await #expect(throws: AuthError.self) { _ = try await rig.client.refresh(session) }
      #expect(ended?.code == .sessionExpired, "an admin password change ends the sessions")
      _ = try await rig.client.signIn(email: "alan@example.com", password: "correct-horse-2")
      let tooLong = await #expect(throws: AuthError.self) {
        _ = try await admin.setPassword(user, to: String(repeating: "é", count: 37))
      }
      #expect(tooLong?.code == .validationFailed, "74 bytes: refused before sending")

      let signOut = await #expect(throws: AuthError.self) { try await admin.signOut(user) }
      #expect(signOut?.code == .notSupported)
      #expect(signOut?.hint?.contains("user set-password alan@example.com") == true)
    }
  }

  @Test func createDuplicateAndDelete() async throws {
    try await withStarted(Rig()) { rig in
      let admin = rig.admin()
      let user = try await admin.createUser(email: "kay@example.com", password: nil, confirmed: true, name: nil)
      let duplicate = await #expect(throws: AuthError.self) {
        _ = try await admin.createUser(email: "kay@example.com", password: nil, confirmed: true, name: nil)
      }
      #expect(duplicate?.code == .userAlreadyExists)
      try await admin.delete(user, soft: false)
      #expect(try await admin.user(.id(user.id)) == nil)
      #expect(try await admin.user(.email("kay@example.com")) == nil)
      let gone = await #expect(throws: AuthError.self) { try await admin.delete(user, soft: true) }
      #expect(gone?.code == .userNotFound)
    }
  }

  @Test func refusedKeysAreConfigErrorsThatSayWhichKey() async throws {
    try await withStarted(Rig()) { rig throws in
      let anon = await #expect(throws: AuthError.self) {
        _ = try await rig.admin(.supabaseServiceRole(rig.emulator.anonKey)).user(.email("a@example.com"))
      }
      #expect(anon?.code == .configError && anon?.status == 403 && anon?.providerCode == "not_admin")
      #expect(anon?.message.contains("its role is anon") == true)
      #expect(anon?.hint?.contains("SUPABASE_SERVICE_ROLE_KEY") == true)
      let garbage = await #expect(throws: AuthError.self) {
        _ = try await rig.admin(.supabaseServiceRole("not-a-jwt")).listUsers(UserListQuery())
      }
      #expect(garbage?.code == .configError && garbage?.providerCode == "bad_jwt" && garbage?.status != nil)
    }
  }

  @Test func theSecretKeyWorksAsApikeyOnly() async throws {
    try await withStarted(Rig(confirmEmail: false)) { rig in
      let admin = rig.admin(.supabaseSecretKey(SupabaseAPIKeys.secret))
      let user = try await admin.createUser(
        email: "sam@example.com", password: "correct-horse-1", confirmed: true, name: nil)
      #expect(try await admin.user(.email("sam@example.com"))?.id == user.id)
      #expect(try await admin.listUsers(UserListQuery()).total == 1)
      #expect(try await admin.disable(user, forSeconds: 60).disabled)
      let wrong = await #expect(throws: AuthError.self) {
        _ = try await rig.admin(.supabaseSecretKey("sb_secret_not-this-project")).listUsers(UserListQuery())
      }
      #expect(
        wrong?.code == .configError && wrong?.status != nil && wrong?.hint?.contains("SUPABASE_SECRET_KEY") == true)
    }
  }

  @Test func softDeleteFreesTheAddress() async throws {
    try await withStarted(Rig(confirmEmail: false)) { rig in
      let admin = rig.admin()
      let user = try await admin.createUser(
        email: "soft@example.com", password: "correct-horse-1", confirmed: true, name: nil)
      try await admin.delete(user, soft: true)
      let gone = try #require(
        try await admin.user(.id(user.id)), "by id the row is still there, for diagnose to say so")
      #expect(gone.deleted && gone.email != "soft@example.com")
      #expect(try await admin.user(.email("soft@example.com")) == nil)
      let again = try await admin.createUser(email: "soft@example.com", password: nil, confirmed: true, name: nil)
      #expect(again.id != user.id)
      // GoTrue's list still returns the soft-deleted row: it comes back marked, with deleted_at.
      let page = try await admin.listUsers(UserListQuery())
      let listed = try #require(page.users.first { $0.id == user.id })
      #expect(listed.deleted && listed.deletedAt != nil && listed.email != "soft@example.com")
      #expect(listed.json["deleted_at"]?.string == listed.deletedAt)
      #expect(page.users.first { $0.id == again.id }?.deleted == false)
      #expect(page.total == 2, "the server's count includes it, so the page and the total agree")
    }
  }

  @Test("user resend works on a project with CAPTCHA protection: sent with the admin key, which GoTrue lets through")
  func resendWithCaptchaOn() async throws {
    try await withStarted(Rig(captcha: true)) { rig in
      let admin = rig.admin()
      let user = try await admin.createUser(
        email: "cap@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      try await admin.resendConfirmation(user)
      #expect(try await admin.user(.email("cap@example.com"))?.pendingMail?.kind == "confirm_email")
      // The secret key (apikey only) is an admin credential too.
      let other = try await admin.createUser(
        email: "cap2@example.com", password: "correct-horse-1", confirmed: false, name: nil)
      try await rig.admin(.supabaseSecretKey(SupabaseAPIKeys.secret)).resendConfirmation(other)
      // What the anon key would get: GoTrue's refusal.
      let anon = await #expect(throws: AuthError.self) {
        _ = try await rig.client.signUp(email: "anon@example.com", password: "correct-horse-1", name: nil)
      }
      #expect(anon?.providerCode == "captcha_failed")
    }
  }
}
