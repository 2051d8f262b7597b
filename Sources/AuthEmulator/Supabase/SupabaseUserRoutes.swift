import HTTPServerKit
import JSONKit

/// `GET /user` and `PUT /user` (`user.go` `UserGet`, `UserUpdate`): the signed-in user.
struct SupabaseUserRoutes: Sendable {
  let context: GoTrueContext

  func getUser(_ request: ServerRequest) throws -> ServerResponse {
    let caller = try context.authenticate(request)
    let body = context.state.read { data -> [UInt8] in
      if let cached = data.userJSONCache[caller.user.id] { return cached }
      let bytes = JSON.object((data.users[caller.user.id] ?? caller.user).wireObject()).bytes
      data.userJSONCache[caller.user.id] = bytes
      return bytes
    }
    return context.json(bytes: body)
  }

  func updateUser(_ request: ServerRequest) throws -> ServerResponse {
    let caller = try context.authenticate(request)
    let params = try RequestParams(request)
    let newPassword = try params.optionalString("password")
    let rawEmail = try params.string("email")
    let metadata = try params.object("data")
    if let newPassword { try GoTrueRules.checkPasswordStrength(newPassword) }
    let email = rawEmail.isEmpty ? "" : try GoTrueRules.validateEmail(rawEmail)
    if try params.object("app_metadata") != nil {
      throw GoTrueError.forbidden("not_admin", "Updating app_metadata requires admin privileges")
    }
    let rawPhone = try params.string("phone")
    let phone = rawPhone.isEmpty ? "" : try GoTrueRules.validatePhone(rawPhone)
    let changingEmail = !email.isEmpty && email != caller.user.email
    if changingEmail, context.state.read({ $0.user(email: email) }) != nil { throw GoTrueError.duplicateEmail }
    // `user.go`: a number another account holds is refused before anything changes.
    let changingPhone = !phone.isEmpty && phone != caller.user.phone
    if changingPhone, context.state.read({ $0.user(phone: phone) }) != nil { throw GoTrueError.phoneTaken }

    var newHash: String?
    if let newPassword {
      if let current = caller.user.passwordHash, StoredPasswordHash.check(newPassword, against: current) == .match {
        throw GoTrueError.unprocessable("same_password", "New password should be different from the old password.")
      }
      newHash = PasswordHasher.hash(newPassword, cost: context.config.bcryptCost)
    }
    let redirectTo = context.redirectTarget(request)
    let now = context.now
    var mails: [OutboxMessage] = []
    var texts: [OutboxMessage] = []
    let user = try context.state.transaction { data -> SBUser in
      guard var user = data.users[caller.user.id] else {
        throw GoTrueError.forbidden("user_not_found", "User from sub claim in JWT does not exist")
      }
      if changingEmail {  // checked first: a 429 must leave everything unchanged
        if data.user(email: email) != nil { throw GoTrueError.duplicateEmail }
        try context.checkFrequency(sentAt: user.emailChangeSentAt, now: now)
      }
      if changingPhone {
        if data.user(phone: phone) != nil { throw GoTrueError.phoneTaken }
        texts.append(try context.preparePhoneChangeSMS(user: &user, phone: phone, now: now))
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
        mails += try context.prepareEmailChangeMails(user: &user, request: request, redirectTo: redirectTo, now: now)
      }
      user.updatedAt = now
      data.recordAudit("user_modified", user: user, at: now)
      data.saveUser(user)
      return user
    }
    context.record(mails)
    for text in texts { context.outbox.record(text) }
    return context.json(.object(user.wireObject()))
  }
}
