import Essentials
import HTTPServerKit
import JSONKit

/// Sign-in without a password: `POST /otp` with an e-mail (`otp.go`, `magic_link.go`: a magic link
/// and a 6-digit code in one mail) or a phone (`otp.go` `SmsOtp`: a code by SMS, to the outbox,
/// addressed to the number in E.164), and `POST /magiclink`, its older spelling.
struct SupabaseOTPRoutes: Sendable {
  let context: GoTrueContext

  // MARK: - POST /otp

  func otp(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let rawEmail = try params.string("email")
    let phone = try params.string("phone")
    // `create_user` defaults to true: only an explicit false turns sign-ups off.
    let createUser = (params.object as JSONObject)["create_user"]?.bool ?? true
    let metadata = (try params.object("data") ?? JSONObject()).sortedByKey
    let challenge = try params.string("code_challenge")
    let challengeMethod = try params.string("code_challenge_method")
    if !rawEmail.isEmpty && !phone.isEmpty {
      throw GoTrueError.validation("Only an email address or phone number should be provided")
    }
    let channel = try params.string("channel")
    if !rawEmail.isEmpty && !channel.isEmpty {
      throw GoTrueError.validation("Channel should only be specified with Phone OTP")
    }
    let pkce = try PKCEChallenge.parse(challenge: challenge, method: challengeMethod)
    if !createUser, !rawEmail.isEmpty {
      let email = try GoTrueRules.validateEmail(rawEmail)
      if context.state.read({ $0.user(email: email) }) == nil {
        throw GoTrueError.unprocessable("otp_disabled", "Signups not allowed for otp")
      }
    }
    if rawEmail.isEmpty {
      guard phone.isEmpty else {
        return try smsOtp(request, phone: phone, channel: channel, createUser: createUser, metadata: metadata)
      }
      throw GoTrueError.validation("One of email or phone must be set")
    }
    let email = try GoTrueRules.validateEmail(rawEmail)
    // A new address signs up with a password nobody knows (hashed outside the lock).
    let temporaryHash =
      context.state.read({ $0.user(email: email) }) == nil
      ? PasswordHasher.hash(EmulatorRandom.uuid() + EmulatorRandom.refreshToken(), cost: context.config.bcryptCost)
      : nil
    let redirectTo = context.redirectTarget(request)
    let now = context.now
    var mails: [OutboxMessage] = []
    try context.state.transaction { data in
      var user: SBUser
      if let existing = data.user(email: email) {
        user = existing
      } else {
        guard let temporaryHash else { throw GoTrueError.internal("Database error finding user") }
        let id = EmulatorRandom.uuid()
        user = SBUser(
          id: id, email: email, passwordHash: temporaryHash, appMetadata: SBUser.emailAppMetadata,
          userMetadata: metadata, createdAt: now, updatedAt: now)
        user.identity = SBIdentity.email(userID: id, email: email, data: metadata, now: now)
      }
      if !user.isConfirmed {
        if context.confirmEmail {
          // The confirmation mail doubles as the magic link (a PKCE one belongs to a sign-up flow).
          mails.append(
            try context.prepareMail(
              .signup, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil))
          if let pkce {
            try context.startFlow(pkce, userID: user.id, method: "email/signup", provider: "email", in: &data, now: now)
          }
          data.recordAudit("user_confirmation_requested", user: user, traits: ["provider": "email"], at: now)
          data.saveUser(user)
          return
        }
        user.confirm(at: now)
        data.recordAudit("user_signedup", user: user, traits: ["provider": "email"], at: now)
        data.recordAudit("login", user: user, traits: ["provider": "email"], at: now)
      }
      if let pkce {
        try context.startFlow(pkce, userID: user.id, method: "magiclink", provider: "magiclink", in: &data, now: now)
      }
      data.recordAudit("user_recovery_requested", user: user, at: now)
      mails.append(
        try context.prepareMail(
          .magiclink, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil))
      data.saveUser(user)
    }
    context.record(mails)
    return context.json([:])
  }

  /// `POST /otp` with a phone: a new (or not yet confirmed) number is signed up with a password
  /// nobody knows and gets a confirmation code; a confirmed one gets a sign-in code. Both codes
  /// live in the confirmation token slot, as `token_hash = hex(SHA-224(phone + code))`.
  func smsOtp(_ request: ServerRequest, phone rawPhone: String, channel: String, createUser: Bool, metadata: JSONObject)
    throws -> ServerResponse
  {
    let phone = try GoTrueRules.validatePhone(rawPhone)
    try GoTrueContext.checkChannel(channel)
    if !createUser, context.state.read({ $0.user(phone: phone) }) == nil {
      throw GoTrueError.unprocessable("otp_disabled", "Signups not allowed for otp")
    }
    let temporaryHash =
      context.state.read({ $0.user(phone: phone) }) == nil
      ? PasswordHasher.hash(EmulatorRandom.uuid() + EmulatorRandom.refreshToken(), cost: context.config.bcryptCost)
      : nil
    let now = context.now
    let sms = try context.state.transaction { data -> OutboxMessage in
      var user: SBUser
      if let existing = data.user(phone: phone) {
        user = existing
      } else {
        guard let temporaryHash else { throw GoTrueError.internal("Database error finding user") }
        user = SBUser(
          id: EmulatorRandom.uuid(), email: "", passwordHash: temporaryHash,
          appMetadata: JSONObject([("provider", "phone"), ("providers", [])]), userMetadata: metadata,
          createdAt: now, updatedAt: now)
        user.setPhone(phone, confirmed: false, at: now)
      }
      let action = user.phoneConfirmedAt == nil ? "user_confirmation_requested" : "user_recovery_requested"
      data.recordAudit(action, user: user, traits: ["provider": "phone", "channel": "sms"], at: now)
      let sms = try context.prepareSMS(user: &user, now: now)
      data.saveUser(user)
      return sms
    }
    context.outbox.record(sms)
    // GoTrue answers `message_id` only for a configured test OTP ("test-otp"); a provider's id
    // is shadowed in `sendPhoneConfirmation`, so a real send answers `{}`.
    return context.json([:])
  }

  // MARK: - POST /magiclink

  /// `POST /magiclink` (`magic_link.go`), the older spelling of `/otp` with an e-mail that the
  /// JavaScript client no longer calls but GoTrue still serves: a confirmed address gets a magic
  /// link, a new or unconfirmed one is signed up first (with confirmation on, the confirmation mail
  /// is the link). Answers `{}`.
  func magicLink(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let email = try params.string("email")
    if email.isEmpty { throw GoTrueError.validation("Password recovery requires an email", status: 422) }
    // Only `MagicLinkParams`' fields go on: the same flow as `/otp` with an e-mail and sign-ups on.
    var forwarded = JSONObject()
    forwarded["email"] = .string(email)
    for key in ["data", "code_challenge", "code_challenge_method"] {
      if let value = params.object[key] { forwarded[key] = value }
    }
    var otpRequest = request
    otpRequest.body = JSON.object(forwarded).bytes
    return try otp(otpRequest)
  }
}
