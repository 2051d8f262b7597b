import HTTPServerKit
import JSONKit

/// `POST /signup` (`signup.go`): the answer depends on whether the address exists, is confirmed,
/// and whether the project requires confirmation.
extension SupabaseAPI {
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
      guard config.anonymousSignIns else {
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
      try Self.checkChannel(try params.string("channel"))
      if !challenge.isEmpty { throw GoTrueError.validation("PKCE not supported for phone signups") }
      return try signupWithPhone(request, phone: phone, password: password, metadata: metadata)
    }
    let pkce = try PKCEChallenge.parse(challenge: challenge, method: challengeMethod)
    let email = try GoTrueRules.validateEmail(rawEmail)

    let hash = PasswordHasher.hash(password, cost: config.bcryptCost)  // slow: outside the lock
    let redirectTo = redirectTarget(request)
    let now = self.now
    var mails: [OutboxMessage] = []
    let outcome = try state.transaction { data -> SignupOutcome in
      if var existing = data.user(email: email) {
        if existing.isConfirmed {
          data.recordAudit("user_repeated_signup", user: existing, traits: ["provider": "email"], at: now)
          guard confirmEmail else {
            throw GoTrueError.unprocessable("user_already_exists", "User already registered")
          }
          return .user(existing.obfuscated(data: metadata, now: now), identities: .empty)
        }
        if confirmEmail {
          mails.append(
            try prepareMail(
              .signup, user: &existing, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil))
          if let pkce {
            try startFlow(pkce, userID: existing.id, method: "email/signup", provider: "email", in: &data, now: now)
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
      if confirmEmail {
        mails.append(
          try prepareMail(.signup, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil))
        if let pkce { try startFlow(pkce, userID: id, method: "email/signup", provider: "email", in: &data, now: now) }
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
    record(mails)
    switch outcome {
    case .user(let user, let identities):
      return json(.object(user.wireObject(identities: identities)))
    case .session(let user, let session, let refreshToken):
      return json(
        bytes: sessionBody(user: user, session: session, refreshToken: refreshToken, request: request, now: now))
    }
  }

  private func session(for userID: String, in data: inout SupabaseData, now: Micros) throws -> SignupOutcome {
    guard let started = startSession(userID: userID, method: "password", in: &data, now: now) else {
      throw GoTrueError.internal("Database error loading user after sign-up")
    }
    return .session(started.user, started.session, started.refreshToken)
  }
}
