import HTTPServerKit
import JSONKit

/// The admin API's links: `POST /admin/generate_link` (`mail.go` `adminGenerateLink`: no mail, no
/// frequency limit; the new token replaces the previous one; answers the user's fields flattened
/// with the link data) and `POST /invite` (`invite.go`: the invitation mailed).
struct SupabaseAdminLinkRoutes: Sendable {
  static let linkTypes: Set<String> = [
    "signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new",
  ]

  let context: GoTrueContext

  // MARK: - POST /admin/generate_link

  func adminGenerateLink(_ request: ServerRequest) throws -> ServerResponse {
    let role = try context.requireAdmin(request)
    let params = try RequestParams(request)
    var type = try params.string("type")
    let email = try GoTrueRules.validateEmail(try params.string("email"))
    var password = try params.string("password")
    let metadata = (try params.object("data") ?? JSONObject()).sortedByKey
    let rawNewEmail = try params.string("new_email")
    let bodyRedirect = try params.string("redirect_to")
    let redirectTo = context.redirectTarget(request, body: bodyRedirect.isEmpty ? nil : bodyRedirect)

    let existing = context.state.read { $0.user(email: email) }
    if existing == nil {
      switch type {
      case "magiclink":
        type = "signup"
        password = EmulatorRandom.uuid() + EmulatorRandom.refreshToken()
      case "recovery", "email_change_current", "email_change_new":
        throw GoTrueError.notFound("user_not_found", "User with this email not found")
      default: break
      }
    }
    guard Self.linkTypes.contains(type) else {
      throw GoTrueError.validation("Invalid email action link type requested: \(type)")
    }
    var hash: String?
    if type == "signup" && existing == nil {
      if password.isEmpty { throw GoTrueError.validation("Signup requires a valid password") }
      try GoTrueRules.checkPasswordStrength(password)
      hash = PasswordHasher.hash(password, cost: context.config.bcryptCost)
    }
    let newEmail = type.hasPrefix("email_change") ? try GoTrueRules.validateEmail(rawNewEmail) : ""

    let now = context.now
    let otp = EmulatorRandom.otp()
    let user = try context.state.transaction { data -> SBUser in
      var user: SBUser
      if let found = data.user(email: email) {
        user = found
      } else {
        guard type == "signup" || type == "invite" else {
          throw GoTrueError.notFound("user_not_found", "User with this email not found")
        }
        let id = EmulatorRandom.uuid()
        user = SBUser(
          id: id, email: email, passwordHash: hash, appMetadata: SBUser.emailAppMetadata, userMetadata: metadata,
          createdAt: now, updatedAt: now)
        user.identity = SBIdentity.email(userID: id, email: email, data: JSONObject(), now: now)
      }
      switch type {
      case "magiclink", "recovery":
        data.recordAudit("user_recovery_requested", user: user, at: now)
        user.recoveryToken = EmulatorJWT.sha224Hex(email + otp)
        user.recoverySentAt = now
      case "invite", "signup":
        if user.isConfirmed && data.users[user.id] != nil { throw GoTrueError.duplicateEmail }
        if type == "signup" && data.users[user.id] != nil { user.userMetadata = user.userMetadata.merging(metadata) }
        user.confirmationToken = EmulatorJWT.sha224Hex(email + otp)
        user.confirmationSentAt = now
        if type == "invite" {
          user.invitedAt = now
          data.recordAudit(
            "user_invited", actor: .admin(role: role),
            traits: ["user_id": .string(user.id), "user_email": .string(email)], at: now)
        }
      default:  // email_change_current, email_change_new
        if let other = data.user(email: newEmail), other.id != user.id { throw GoTrueError.duplicateEmail }
        user.newEmail = newEmail
        user.emailChangeSentAt = now
        user.emailChangeToken = EmulatorJWT.sha224Hex((type == "email_change_new" ? newEmail : email) + otp)
      }
      data.saveUser(user)
      return user
    }
    let tokenHash: String
    switch type {
    case "magiclink", "recovery": tokenHash = user.recoveryToken
    case "invite", "signup": tokenHash = user.confirmationToken
    default: tokenHash = user.emailChangeToken
    }
    let linkType = type.hasPrefix("email_change") ? "email_change" : type
    var body = user.wireObject()
    body["action_link"] = .string(
      context.actionLink(origin: context.origin(of: request), hash: tokenHash, type: linkType, redirectTo: redirectTo))
    body["email_otp"] = .string(otp)
    body["hashed_token"] = .string(tokenHash)
    body["verification_type"] = .string(type)
    body["redirect_to"] = .string(redirectTo)
    return context.json(.object(body))
  }

  // MARK: - POST /invite

  func invite(_ request: ServerRequest) throws -> ServerResponse {
    let role = try context.requireAdmin(request)
    let params = try RequestParams(request)
    let email = try GoTrueRules.validateEmail(try params.string("email"))
    let metadata = (try params.object("data") ?? JSONObject()).sortedByKey
    let redirectTo = context.redirectTarget(request)
    let now = context.now
    var mails: [OutboxMessage] = []
    let user = try context.state.transaction { data -> SBUser in
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
      try context.checkMayReceiveMail(email)
      try context.checkEmailQuota()
      mails.append(
        try context.prepareMail(
          .invite, user: &user, request: request, redirectTo: redirectTo, now: now, enforceLimit: false))
      data.saveUser(user)
      return user
    }
    context.record(mails)
    return context.json(.object(user.wireObject()))
  }

}
