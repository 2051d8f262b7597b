import HTTPServerKit
import JSONKit

/// Accounts that start without a password: `POST /invite` (`invite.go`), `POST /otp` with an
/// e-mail (`otp.go`, `magic_link.go`: a magic link and a 6-digit code in one mail) and anonymous
/// sign-in (`anonymous.go`).
extension SupabaseAPI {
  // MARK: - POST /invite

  func invite(_ request: ServerRequest) throws -> ServerResponse {
    let role = try requireAdmin(request)
    let params = try RequestParams(request)
    let email = try GoTrueRules.validateEmail(try params.string("email"))
    let metadata = (try params.object("data") ?? JSONObject()).sortedByKey
    let redirectTo = redirectTarget(request)
    let now = self.now
    var mails: [OutboxMessage] = []
    let user = try state.transaction { data -> SBUser in
      var user: SBUser
      if let existing = data.user(email: email) {
        if existing.isConfirmed { throw GoTrueError.duplicateEmail }
        user = existing
      } else {
        let id = EmulatorRandom.uuid()
        user = SBUser(
          id: id, email: email, passwordHash: nil, appMetadata: SBUser.emailAppMetadata, userMetadata: metadata,
          createdAt: now, updatedAt: now)
        user.identity = SBIdentity.email(userID: id, email: email, data: JSONObject(), now: now)
      }
      data.recordAudit(
        "user_invited", actor: .admin(role: role),
        traits: ["user_id": .string(user.id), "user_email": .string(email)], at: now)
      try checkMayReceiveMail(email)
      try checkEmailQuota()
      mails.append(
        try prepareMail(.invite, user: &user, request: request, redirectTo: redirectTo, now: now, enforceLimit: false))
      data.saveUser(user)
      return user
    }
    record(mails)
    return json(.object(user.wireObject()))
  }

  // MARK: - POST /otp (e-mail; a phone goes to `smsOtp`)

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
      if state.read({ $0.user(email: email) }) == nil {
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
      state.read({ $0.user(email: email) }) == nil
      ? PasswordHasher.hash(EmulatorRandom.uuid() + EmulatorRandom.refreshToken(), cost: config.bcryptCost) : nil
    let redirectTo = redirectTarget(request)
    let now = self.now
    var mails: [OutboxMessage] = []
    try state.transaction { data in
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
        if confirmEmail {
          // The confirmation mail doubles as the magic link (a PKCE one belongs to a sign-up flow).
          mails.append(
            try prepareMail(
              .signup, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil))
          if let pkce {
            try startFlow(pkce, userID: user.id, method: "email/signup", provider: "email", in: &data, now: now)
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
        try startFlow(pkce, userID: user.id, method: "magiclink", provider: "magiclink", in: &data, now: now)
      }
      data.recordAudit("user_recovery_requested", user: user, at: now)
      mails.append(
        try prepareMail(
          .magiclink, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil))
      data.saveUser(user)
    }
    record(mails)
    return json([:])
  }

  // MARK: - POST /signup without e-mail or phone

  /// `SignupAnonymously`: no e-mail, no identity, no provider in `app_metadata`, amr `anonymous`.
  func signupAnonymously(_ request: ServerRequest, metadata: JSONObject) throws -> ServerResponse {
    let now = self.now
    let started = try state.transaction { data -> (user: SBUser, session: SBSession, refreshToken: String) in
      var user = SBUser(
        id: EmulatorRandom.uuid(), email: "", appMetadata: JSONObject(), userMetadata: metadata,
        createdAt: now, updatedAt: now)
      user.isAnonymous = true
      data.saveUser(user)
      guard let started = startSession(userID: user.id, method: "anonymous", in: &data, now: now) else {
        throw GoTrueError.internal("Database error creating anonymous user")
      }
      return started
    }
    return json(
      bytes: sessionBody(
        user: started.user, session: started.session, refreshToken: started.refreshToken,
        request: request, now: now))
  }
}
