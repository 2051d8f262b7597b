import HTTPServerKit
import JSONKit

/// `POST /signup` (`signup.go`): the answer depends on whether the address exists, is confirmed,
/// and whether the project requires confirmation. With a phone and a password (provider `phone`):
/// phone confirmations are on, as `/settings` says (`phone_autoconfirm: false`), so a new number is
/// texted a code (outbox kind `sms`) and `/verify` type `sms` confirms it and starts the session.
/// With neither (`anonymous.go`): an anonymous user and a session.
struct SupabaseSignupRoutes: Sendable {
  private static let phoneAppMetadata = JSONObject([("provider", "phone"), ("providers", ["phone"])])

  let context: GoTrueContext

  private enum SignupOutcome {
    case user(SBUser, identities: SBUser.IdentitiesField)
    case session(SBUser, SBSession, String)
  }

  func signup(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let rawEmail = try params.string("email")
    let phone = try params.string("phone")
    let password = try params.string("password")
    let metadata = (try params.object("data") ?? JSONObject()).sortedByKey
    let challenge = try params.string("code_challenge")
    let challengeMethod = try params.string("code_challenge_method")

    if rawEmail.isEmpty && phone.isEmpty {
      guard context.config.anonymousSignIns else {
        throw GoTrueError.unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled")
      }
      return try signupAnonymously(request, metadata: metadata)
    }
    if password.isEmpty { throw GoTrueError.validation("Signup requires a valid password") }
    try GoTrueRules.checkPasswordStrength(password)
    if !rawEmail.isEmpty && !phone.isEmpty {
      throw GoTrueError.validation("Only an email address or phone number should be provided on signup.")
    }
    if !phone.isEmpty {
      try GoTrueContext.checkChannel(try params.string("channel"))
      if !challenge.isEmpty { throw GoTrueError.validation("PKCE not supported for phone signups") }
      return try signupWithPhone(request, phone: phone, password: password, metadata: metadata)
    }
    let pkce = try PKCEChallenge.parse(challenge: challenge, method: challengeMethod)
    let email = try GoTrueRules.validateEmail(rawEmail)

    let hash = PasswordHasher.hash(password, cost: context.config.bcryptCost)  // slow: outside the lock
    let redirectTo = context.redirectTarget(request)
    let now = context.now
    var mails: [OutboxMessage] = []
    let outcome = try context.state.transaction { data -> SignupOutcome in
      if var existing = data.user(email: email) {
        if existing.isConfirmed {
          data.recordAudit("user_repeated_signup", user: existing, traits: ["provider": "email"], at: now)
          guard context.confirmEmail else {
            throw GoTrueError.unprocessable("user_already_exists", "User already registered")
          }
          return .user(existing.obfuscated(data: metadata, now: now), identities: .empty)
        }
        if context.confirmEmail {
          mails.append(
            try context.prepareMail(
              .signup, user: &existing, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil))
          if let pkce {
            try context.startFlow(
              pkce, userID: existing.id, method: "email/signup", provider: "email", in: &data, now: now)
          }
          data.recordAudit("user_confirmation_requested", user: existing, traits: ["provider": "email"], at: now)
          data.saveUser(existing)
          return .user(existing, identities: .loaded)
        }
        existing.confirm(at: now)
        data.recordAudit("user_signedup", user: existing, traits: ["provider": "email"], at: now)
        data.recordAudit("login", user: existing, traits: ["provider": "email"], at: now)
        data.saveUser(existing)
        return try session(for: existing.id, in: &data, now: now)
      }

      let id = EmulatorRandom.uuid()
      var user = SBUser(
        id: id, email: email, passwordHash: hash, appMetadata: SBUser.emailAppMetadata, userMetadata: metadata,
        createdAt: now, updatedAt: now)
      user.identity = SBIdentity.email(userID: id, email: email, data: metadata, now: now)
      if context.confirmEmail {
        mails.append(
          try context.prepareMail(
            .signup, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil))
        if let pkce {
          try context.startFlow(pkce, userID: id, method: "email/signup", provider: "email", in: &data, now: now)
        }
        data.recordAudit("user_confirmation_requested", user: user, traits: ["provider": "email"], at: now)
        data.saveUser(user)
        return .user(user, identities: .loaded)
      }
      user.confirm(at: now)
      data.recordAudit("user_signedup", user: user, traits: ["provider": "email"], at: now)
      data.recordAudit("login", user: user, traits: ["provider": "email"], at: now)
      data.saveUser(user)
      return try session(for: id, in: &data, now: now)
    }
    context.record(mails)
    switch outcome {
    case .user(let user, let identities):
      return context.json(.object(user.wireObject(identities: identities)))
    case .session(let user, let session, let refreshToken):
      return context.json(
        bytes: context.sessionBody(user: user, session: session, refreshToken: refreshToken, request: request, now: now)
      )
    }
  }

  private func session(for userID: String, in data: inout SupabaseData, now: Micros) throws -> SignupOutcome {
    guard let started = context.startSession(userID: userID, method: "password", in: &data, now: now) else {
      throw GoTrueError.internal("Database error loading user after sign-up")
    }
    return .session(started.user, started.session, started.refreshToken)
  }

  // MARK: - With a phone

  func signupWithPhone(_ request: ServerRequest, phone rawPhone: String, password: String, metadata: JSONObject)
    throws -> ServerResponse
  {
    let phone = try GoTrueRules.validatePhone(rawPhone)
    // Hashing is slow: outside the lock, and only for a number nobody has.
    let hash =
      context.state.read { $0.user(phone: phone) } == nil
      ? PasswordHasher.hash(password, cost: context.config.bcryptCost) : nil
    let now = context.now
    var texts: [OutboxMessage] = []
    let answer = try context.state.transaction { data -> SBUser in
      if var existing = data.user(phone: phone) {
        if existing.phoneConfirmedAt != nil {
          data.recordAudit("user_repeated_signup", user: existing, traits: ["provider": "phone"], at: now)
          // `UserExistsError`: refused outright when either kind of confirmation is off.
          guard context.confirmEmail else {
            throw GoTrueError.unprocessable("user_already_exists", "User already registered")
          }
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
        texts.append(try context.prepareSMS(user: &existing, now: now))
        data.saveUser(existing)
        return existing
      }
      guard let hash else { throw GoTrueError.internal("Database error finding user") }
      var user = SBUser(
        id: EmulatorRandom.uuid(), email: "", passwordHash: hash, appMetadata: Self.phoneAppMetadata,
        userMetadata: metadata, createdAt: now, updatedAt: now)
      user.setPhone(phone, confirmed: false, at: now)
      data.recordAudit("user_confirmation_requested", user: user, traits: ["provider": "phone"], at: now)
      texts.append(try context.prepareSMS(user: &user, now: now))
      data.saveUser(user)
      return user
    }
    texts.forEach(context.outbox.record)
    return context.json(.object(answer.wireObject()))
  }

  // MARK: - Without e-mail or phone

  /// `SignupAnonymously`: no e-mail, no identity, no provider in `app_metadata`, amr `anonymous`.
  func signupAnonymously(_ request: ServerRequest, metadata: JSONObject) throws -> ServerResponse {
    let now = context.now
    let started = try context.state.transaction { data -> (user: SBUser, session: SBSession, refreshToken: String) in
      var user = SBUser(
        id: EmulatorRandom.uuid(), email: "", appMetadata: JSONObject(), userMetadata: metadata,
        createdAt: now, updatedAt: now)
      user.isAnonymous = true
      data.saveUser(user)
      guard let started = context.startSession(userID: user.id, method: "anonymous", in: &data, now: now) else {
        throw GoTrueError.internal("Database error creating anonymous user")
      }
      return started
    }
    return context.json(
      bytes: context.sessionBody(
        user: started.user, session: started.session, refreshToken: started.refreshToken,
        request: request, now: now))
  }
}
