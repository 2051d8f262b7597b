import HTTPServerKit
import JSONKit

/// `PUT /user` (`user.go` `UserUpdate`).
extension SupabaseAPI {
  func updateUser(_ request: ServerRequest) throws -> ServerResponse {
    let caller = try authenticate(request)
    let params = try RequestParams(request)
    let newPassword = try params.optionalString("password")
    let rawEmail = try params.string("email")
    let metadata = try params.object("data")
    if let newPassword { try GoTrueRules.checkPasswordStrength(newPassword) }
    let email = rawEmail.isEmpty ? "" : try GoTrueRules.validateEmail(rawEmail)
    if try params.object("app_metadata") != nil {
      throw GoTrueError.forbidden("not_admin", "Updating app_metadata requires admin privileges")
    }
    if !(try params.string("phone")).isEmpty {
      throw GoTrueError.badRequest("phone_provider_disabled", "Phone signups are disabled")
    }
    let changingEmail = !email.isEmpty && email != caller.user.email
    if changingEmail, state.read({ $0.user(email: email) }) != nil { throw GoTrueError.duplicateEmail }

    var newHash: String?
    if let newPassword {
      if let current = caller.user.passwordHash, StoredPasswordHash.check(newPassword, against: current) == .match {
        throw GoTrueError.unprocessable("same_password", "New password should be different from the old password.")
      }
      newHash = PasswordHasher.hash(newPassword, cost: config.bcryptCost)
    }
    let redirectTo = redirectTarget(request)
    let now = self.now
    var mails: [OutboxMessage] = []
    let user = try state.transaction { data -> SBUser in
      guard var user = data.users[caller.user.id] else {
        throw GoTrueError.forbidden("user_not_found", "User from sub claim in JWT does not exist")
      }
      if changingEmail {  // checked first: a 429 must leave everything unchanged
        if data.user(email: email) != nil { throw GoTrueError.duplicateEmail }
        try checkFrequency(sentAt: user.emailChangeSentAt, now: now)
      }
      if let newHash {
        data.recordAudit("user_updated_password", user: user, at: now)
        user.setPassword(hash: newHash, at: now)
        // A password change ends every other session (all of them without a session claim).
        for session in data.sessions(ofUser: user.id) where session.id != caller.sessionID {
          data.deleteSession(id: session.id)
        }
      }
      if let metadata { user.userMetadata = user.userMetadata.merging(metadata) }
      if changingEmail {
        user.newEmail = email
        mails += try prepareEmailChangeMails(user: &user, request: request, redirectTo: redirectTo, now: now)
      }
      user.updatedAt = now
      data.recordAudit("user_modified", user: user, at: now)
      data.saveUser(user)
      return user
    }
    record(mails)
    return json(.object(user.wireObject()))
  }
}
