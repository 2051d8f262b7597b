import AuthCore
import JSONKit
import Testing

/// `diagnose` names the ways an account signs in other than a password, and what they need.
@Suite struct DiagnosisWaysInTests {
  let now = UnixTime.parseISO("2026-11-23T12:00:00Z") ?? 0

  func evaluate(_ user: AdminUser, _ provider: ProviderKind = .supabase, history: [AccountEvent]? = nil) -> Diagnosis {
    Diagnosis.evaluate(
      email: user.email.isEmpty ? user.id : user.email, user: user, provider: provider, settings: nil, now: now,
      history: history)
  }

  func codes(_ diagnosis: Diagnosis) -> [String] { diagnosis.findings.map(\.code) }

  func account(_ methods: [String], confirmed: Bool = true, change: (inout AdminUser) -> Void = { _ in }) -> AdminUser {
    var user = AdminUser(id: "u1", email: "ada@example.com", confirmed: confirmed, methods: methods)
    change(&user)
    return user
  }

  @Test func anInvitePendingNeedsTheInviteLinkNotAConfirmation() {
    let d = evaluate(account(["email_link"], confirmed: false) { $0.invitedAt = "2026-11-20T10:00:00Z" })
    #expect(codes(d) == ["invite_pending"])
    #expect(d.findings[0].fix == "authsh user link invite ada@example.com")
    #expect(d.findings[0].message.contains("2026-11-20T10:00:00Z"))
    #expect(!d.canSignIn)
  }

  @Test func anEmailLinkOnlyAccountIsToldApartFromNoPasswordAtAll() {
    let link = evaluate(account(["email_link"]), .firebase)
    #expect(codes(link) == ["email_link_only"])
    #expect(link.findings[0].fix == "authsh user link recovery ada@example.com")
    let none = evaluate(account([]), .firebase)
    #expect(codes(none) == ["no_password"])
    #expect(none.findings[0].message.contains("no other way to sign in"))
  }

  @Test func ssoAnonymousAndSoftDeletedAccountsSayWhoManagesThem() {
    let sso = evaluate(account(["sso:0b6f"], confirmed: false) { $0.sso = true })
    #expect(codes(sso) == ["sso_user"], "unconfirmed says nothing more for an SSO account")
    #expect(sso.findings[0].message.contains("identity provider") && sso.findings[0].fix == nil)
    var anonymous = AdminUser(id: "a11e", email: "", confirmed: false, methods: ["anonymous"])
    anonymous.anonymous = true
    let anon = evaluate(anonymous)
    #expect(codes(anon) == ["anonymous"])
    #expect(anon.email == "a11e")
    let deleted = evaluate(
      account(["password"]) {
        $0.deletedAt = "2026-11-22T08:00:00Z"
        $0.disabled = true
      })
    #expect(codes(deleted) == ["soft_deleted"], "nothing else matters for a deleted account")
    #expect(!deleted.canSignIn)
  }

  @Test func aSecondFactorIsANoteWithTheResetCommand() {
    let user = account(["password"]) {
      $0.factors = [
        AuthFactor(id: "f1", kind: .totp, name: "phone"), AuthFactor(id: "f2", kind: .totp, status: .unverified),
      ]
    }
    let d = evaluate(user)
    #expect(codes(d) == ["mfa_enrolled", "ok", "rate_limit_possible"])
    #expect(d.canSignIn)
    #expect(d.findings[0].blocking == false)
    #expect(d.findings[0].fix == "authsh user mfa reset ada@example.com")
    #expect(d.findings[0].message.contains("a second factor (totp \"phone\")"), "the unverified one is not counted")
  }

  @Test func theAuditTrailGivesTheLastSignInAndRecoveryRequest() {
    let trail = [
      AccountEvent(time: "2026-11-23T11:00:00Z", action: "token_refreshed"),
      AccountEvent(time: "2026-11-23T10:00:00Z", action: "user_recovery_requested"),
      AccountEvent(time: "2026-11-22T10:00:00Z", action: "login"),
      AccountEvent(time: "2026-11-21T10:00:00Z", action: "login"),
    ]
    let d = evaluate(account(["password"]), history: trail)
    #expect(d.lastSignIn == "2026-11-22T10:00:00Z")
    #expect(d.lastRecoveryRequest == "2026-11-23T10:00:00Z")
    #expect(d.json["last_sign_in"]?.string == "2026-11-22T10:00:00Z")
    let none = evaluate(account(["password"]))
    #expect(none.json["last_sign_in"] == .null)
  }
}
