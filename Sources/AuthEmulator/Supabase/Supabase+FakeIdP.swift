import HTTPServerKit
import JSONKit

/// `POST /emulator/v1/supabase/idp` (emulator only): what a browser would bring back from Google,
/// GitHub, … after `GET /auth/v1/authorize?provider=…`, as one call. GoTrue's
/// `createAccountFromExternalIdentity`: the identity's account signs in; else an account with the
/// same verified e-mail gets the identity linked; else a new account is made with only that
/// identity. Answers the session, as the token endpoint does.
extension SupabaseAPI {
  static let fakeIdPPath = "/emulator/v1/supabase/idp"

  func fakeIdPSignIn(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let provider = try params.string("provider").lowercased()
    guard EmulatorSeed.supabaseProviders.contains(provider), provider != "email" else {
      throw GoTrueError.validation(
        "Unsupported provider: \(JSON.string(provider).compactText) (one of "
          + EmulatorSeed.supabaseProviders.subtracting(["email"]).sorted().joined(separator: ", ") + ")")
    }
    let rawEmail = try params.string("email")
    let email = rawEmail.isEmpty ? "" : try GoTrueRules.validateEmail(rawEmail)
    let emailVerified = (params.object as JSONObject)["email_verified"]?.bool ?? true
    let name = try params.optionalString("name")
    let givenSubject = try params.string("sub")
    let subject = givenSubject.isEmpty ? Self.fakeSubject(provider: provider, email: email) : givenSubject
    let now = self.now
    let traits: JSON = ["provider": .string(provider)]
    let started = try state.transaction { data -> (user: SBUser, session: SBSession, refreshToken: String) in
      let user = try externalUser(
        in: &data, provider: provider, email: email, emailVerified: emailVerified, name: name, subject: subject,
        ip: clientIP(request), now: now)
      data.recordAudit("login", user: user, traits: traits, at: now)
      guard let started = startSession(userID: user.id, method: "oauth", in: &data, now: now) else {
        throw GoTrueError.internal("Database error creating session")
      }
      return started
    }
    return json(
      bytes: sessionBody(
        user: started.user, session: started.session, refreshToken: started.refreshToken,
        request: request, now: now))
  }

  /// GoTrue's `createAccountFromExternalIdentity`, for an identity a provider vouched for: its
  /// account; else the account of the same verified address, the identity linked; else a new one.
  /// Saved, with the identity's last sign-in now.
  func externalUser(
    in data: inout SupabaseData, provider: String, email: String, emailVerified: Bool, name: String?,
    subject: String, ip: String, now: Micros
  ) throws -> SBUser {
    let traits: JSON = ["provider": .string(provider)]
    var user: SBUser
    if let owner = data.users.values.first(where: { candidate in
      candidate.otherIdentities.contains { $0.provider == provider && $0.providerID == subject }
    }) {
      user = owner
      if user.isBanned(at: now) { throw GoTrueError.badRequest("user_banned", "User is banned") }
    } else if !email.isEmpty, emailVerified, var existing = data.user(email: email), !existing.isSSOUser {
      if existing.isBanned(at: now) { throw GoTrueError.badRequest("user_banned", "User is banned") }
      let identity = Self.externalIdentity(provider: provider, subject: subject, user: existing, now: now, name: name)
      existing.otherIdentities.append(identity)
      existing.appMetadata["providers"] = .array(existing.identityProviders.map(JSON.string))
      existing.appMetadata = existing.appMetadata.sortedByKey
      data.recordAudit(
        "identity_linked", user: existing, ip: ip,
        traits: [
          "identity_id": .string(identity.identityID), "provider": .string(provider), "provider_id": .string(subject),
        ], at: now)
      if !existing.isConfirmed {
        if existing.invitedAt != nil { data.recordAudit("invite_accepted", user: existing, traits: traits, at: now) }
        existing.confirm(at: now)
      }
      user = existing
    } else {
      if !email.isEmpty, data.user(email: email) != nil {
        throw GoTrueError.unprocessable("email_exists", "A user with this email address has already been registered")
      }
      user = SBUser(
        id: EmulatorRandom.uuid(), email: email, appMetadata: JSONObject(), userMetadata: JSONObject(),
        createdAt: now, updatedAt: now)
      let identity = Self.externalIdentity(provider: provider, subject: subject, user: user, now: now, name: name)
      user.otherIdentities = [identity]
      user.appMetadata = JSONObject([("provider", .string(provider)), ("providers", [.string(provider)])])
      user.userMetadata = identity.data
      if emailVerified || !confirmEmail {
        user.emailConfirmedAt = now
      } else {
        data.saveUser(user)
        throw GoTrueError.badRequest(
          "provider_email_needs_verification",
          "Unverified email with \(provider). A confirmation email has been sent to your \(provider) email")
      }
      data.recordAudit("user_signedup", user: user, traits: traits, at: now)
    }
    if let index = user.otherIdentities.firstIndex(where: { $0.provider == provider && $0.providerID == subject }) {
      user.otherIdentities[index].lastSignInAt = now
    }
    data.saveUser(user)
    return user
  }
}
