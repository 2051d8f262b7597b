import HTTPServerKit
import JSONKit

/// `POST /signup` with a phone and a password (`signup.go`, provider `phone`), and `POST /resend`
/// for texts (`resend.go`, types `sms` and `phone_change`). Phone confirmations are on, as
/// `/settings` says (`phone_autoconfirm: false`): a new number is texted a code (outbox kind `sms`)
/// and `/verify` type `sms` confirms it and starts the session.
extension SupabaseAPI {
  private static let phoneAppMetadata = JSONObject([("provider", "phone"), ("providers", ["phone"])])

  func signupWithPhone(_ request: ServerRequest, phone rawPhone: String, password: String, metadata: JSONObject)
    throws -> ServerResponse
  {
    let phone = try GoTrueRules.validatePhone(rawPhone)
    // Hashing is slow: outside the lock, and only for a number nobody has.
    let hash =
      state.read { $0.user(phone: phone) } == nil ? PasswordHasher.hash(password, cost: config.bcryptCost) : nil
    let now = self.now
    var texts: [OutboxMessage] = []
    let answer = try state.transaction { data -> SBUser in
      if var existing = data.user(phone: phone) {
        if existing.phoneConfirmedAt != nil {
          data.recordAudit("user_repeated_signup", user: existing, traits: ["provider": "phone"], at: now)
          // `UserExistsError`: refused outright when either kind of confirmation is off.
          guard confirmEmail else { throw GoTrueError.unprocessable("user_already_exists", "User already registered") }
          var fake = existing.obfuscated(data: metadata, now: now)
          fake.phone = existing.phone
          fake.email = ""
          fake.phoneConfirmedAt = nil
          fake.appMetadata = Self.phoneAppMetadata
          return fake
        }
        // Not confirmed yet: the account is not changed (the caller's claim is unproven), and
        // the code is texted again.
        data.recordAudit("user_confirmation_requested", user: existing, traits: ["provider": "phone"], at: now)
        texts.append(try prepareSMS(user: &existing, now: now))
        data.saveUser(existing)
        return existing
      }
      guard let hash else { throw GoTrueError.internal("Database error finding user") }
      var user = SBUser(
        id: EmulatorRandom.uuid(), email: "", passwordHash: hash, appMetadata: Self.phoneAppMetadata,
        userMetadata: metadata, createdAt: now, updatedAt: now)
      user.setPhone(phone, confirmed: false, at: now)
      data.recordAudit("user_confirmation_requested", user: user, traits: ["provider": "phone"], at: now)
      texts.append(try prepareSMS(user: &user, now: now))
      data.saveUser(user)
      return user
    }
    texts.forEach(outbox.record)
    return json(.object(answer.wireObject()))
  }

  /// `/resend` for a phone: `sms` texts a new confirmation code to a number not confirmed yet,
  /// `phone_change` a new code to the number the account is changing to. An unknown number, a
  /// confirmed one, or no pending change: `{}` and nothing sent (the answer does not tell them apart).
  func resendSMS(type: String, phone rawPhone: String) throws -> ServerResponse {
    let phone = try GoTrueRules.validatePhone(rawPhone)
    let now = self.now
    let text = try state.transaction { data -> OutboxMessage? in
      guard var user = data.user(phone: phone) else { return nil }
      let text: OutboxMessage
      if type == "sms" {
        guard user.phoneConfirmedAt == nil else { return nil }
        data.recordAudit("user_recovery_requested", user: user, at: now)
        text = try prepareSMS(user: &user, now: now)
      } else {
        guard !user.phoneChange.isEmpty else { return nil }
        text = try preparePhoneChangeSMS(user: &user, phone: user.phoneChange, now: now)
      }
      data.saveUser(user)
      return text
    }
    if let text { outbox.record(text) }
    return json([:])
  }
}
