import Essentials
import HTTPServerKit
import JSONKit

/// `accounts:sendOobCode` and `accounts:resetPassword` (`operations.ts`).
struct FirebaseOobRoutes: Sendable {
  let context: FirebaseContext

  func sendOobCode(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    let requestType = body.string("requestType") ?? "OOB_REQ_TYPE_UNSPECIFIED"
    try require(requestType != "OOB_REQ_TYPE_UNSPECIFIED", "MISSING_REQ_TYPE")
    let returnOobLink = body.bool("returnOobLink") == true
    if returnOobLink { try require(call.privileged, "INSUFFICIENT_PERMISSION") }
    let continueUrl = body.truthy("continueUrl")
    if let continueUrl {
      try require(
        FirebaseRules.isAbsoluteURI(continueUrl),
        "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
    }
    return try context.state.with(call.projectId) { project in
      var email: String
      var newEmail: String?
      switch requestType {
      case "EMAIL_SIGNIN":
        guard let given = body.truthy("email") else { throw FirebaseError.bad("MISSING_EMAIL") }
        email = FirebaseRules.canonicalEmail(given)
      case "PASSWORD_RESET":
        guard let given = body.truthy("email") else { throw FirebaseError.bad("MISSING_EMAIL") }
        email = FirebaseRules.canonicalEmail(given)
        if project.user(email: email) == nil, context.emailPrivacy(project) {
          return ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(email)]
        }
        try require(project.user(email: email) != nil, "EMAIL_NOT_FOUND")
      case "VERIFY_EMAIL":
        if returnOobLink && !body.isTruthy("idToken") {
          guard let given = body.truthy("email") else { throw FirebaseError.bad("MISSING_EMAIL") }
          email = FirebaseRules.canonicalEmail(given)
          try require(project.user(email: email) != nil, "USER_NOT_FOUND")
        } else {
          let user = try context.parseIdToken(project, body.string("idToken") ?? "").user
          guard let current = user.email else { throw FirebaseError.bad("MISSING_EMAIL") }
          email = current
        }
      case "VERIFY_AND_CHANGE_EMAIL":
        guard let given = body.truthy("newEmail") else { throw FirebaseError.bad("MISSING_NEW_EMAIL") }
        newEmail = FirebaseRules.canonicalEmail(given)
        if returnOobLink && !body.isTruthy("idToken") {
          guard let old = body.truthy("email") else { throw FirebaseError.bad("MISSING_EMAIL") }
          email = FirebaseRules.canonicalEmail(old)
          try require(project.user(email: email) != nil, "USER_NOT_FOUND")
        } else {
          guard let idToken = body.truthy("idToken") else { throw FirebaseError.bad("MISSING_ID_TOKEN") }
          let user = try context.parseIdToken(project, idToken).user
          guard let current = user.email else { throw FirebaseError.bad("MISSING_EMAIL") }
          email = current
        }
        try require(project.user(email: newEmail ?? "") == nil, "EMAIL_EXISTS")
      default:
        throw FirebaseError.notImplemented(requestType)
      }
      let oob = try context.createOob(
        project, request: call.request, email: email, newEmail: newEmail,
        requestType: requestType, continueUrl: continueUrl, mail: !returnOobLink)
      var response = JSONObject()
      response["kind"] = "identitytoolkit#GetOobConfirmationCodeResponse"
      response["email"] = .string(email)
      if returnOobLink {
        response["oobCode"] = .string(oob.oobCode)
        response["oobLink"] = .string(oob.oobLink)
      }
      return .object(response)
    }
  }

  /// Like production only: a password-reset code works for one hour (`EXPIRED_OOB_CODE` after).
  /// The official emulator's codes never expire.
  func requireLive(_ oob: FirebaseOob, at time: Date) throws {
    guard context.mode.likeProduction, oob.requestType == "PASSWORD_RESET", let createdAt = oob.createdAt else {
      return
    }
    try require(FirebaseTime.milliseconds(time) - createdAt <= Self.resetCodeLifetimeMs, "EXPIRED_OOB_CODE")
  }

  static let resetCodeLifetimeMs = 3_600_000

  func resetPassword(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    guard let code = body.truthy("oobCode") else { throw FirebaseError.bad("MISSING_OOB_CODE") }
    let newPassword = body.truthy("newPassword")
    let newHash = context.preHash(newPassword, projectId: call.projectId)
    let timestamp = context.now
    return try context.state.with(call.projectId) { project in
      guard let oob = project.oob(code) else { throw FirebaseError.bad("INVALID_OOB_CODE") }
      try requireLive(oob, at: timestamp)
      if newPassword != nil {
        try require(oob.requestType == "PASSWORD_RESET", "INVALID_OOB_CODE")
        guard let newHash else { throw FirebaseError.bad(FirebaseRules.weakPassword) }
        try project.deleteOob(code)
        guard var user = project.user(email: oob.email) else { throw FirebaseError.bad("INVALID_OOB_CODE") }
        user.emailVerified = true
        user.passwordHash = newHash
        user.passwordUpdatedAt = FirebaseTime.milliseconds(timestamp)
        user.validSince = FirebaseTime.seconds(timestamp)
        try project.save(user)
      }
      var response = JSONObject()
      response["kind"] = "identitytoolkit#ResetPasswordResponse"
      response["requestType"] = .string(oob.requestType)
      if oob.requestType != "EMAIL_SIGNIN" { response["email"] = .string(oob.email) }
      if let newEmail = oob.newEmail { response["newEmail"] = .string(newEmail) }
      return .object(response)
    }
  }
}
