import HTTPServerKit
import JSONKit

/// `POST /admin/generate_link` (`mail.go` `adminGenerateLink`): no mail, no frequency limit; the
/// new token replaces the previous one. Answers the user's fields flattened with the link data.
extension SupabaseAPI {
  static let linkTypes: Set<String> = [
    "signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new",
  ]

  func adminGenerateLink(_ request: ServerRequest) throws -> ServerResponse {
    let role = try requireAdmin(request)
    let params = try RequestParams(request)
    var type = try params.string("type")
    let email = try GoTrueRules.validateEmail(try params.string("email"))
    var password = try params.string("password")
    let metadata = (try params.object("data") ?? JSONObject()).sortedByKey
    let rawNewEmail = try params.string("new_email")
    let bodyRedirect = try params.string("redirect_to")
    let redirectTo = redirectTarget(request, body: bodyRedirect.isEmpty ? nil : bodyRedirect)

    let existing = state.read { $0.user(email: email) }
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
      hash = PasswordHasher.hash(password, cost: config.bcryptCost)
    }
    let newEmail = type.hasPrefix("email_change") ? try GoTrueRules.validateEmail(rawNewEmail) : ""

    let now = self.now
    let otp = EmulatorRandom.otp()
    let user = try state.transaction { data -> SBUser in
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
      actionLink(origin: origin(of: request), hash: tokenHash, type: linkType, redirectTo: redirectTo))
    body["email_otp"] = .string(otp)
    body["hashed_token"] = .string(tokenHash)
    body["verification_type"] = .string(type)
    body["redirect_to"] = .string(redirectTo)
    return json(.object(body))
  }
}
