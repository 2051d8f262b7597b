import Essentials
import HTTPServerKit
import JSONKit

/// `accounts:sendOobCode` and `accounts:resetPassword` (`operations.ts`).
extension FirebaseAPI {
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
    return try state.with(call.projectId) { project in
      var email: String
      var newEmail: String?
      switch requestType {
      case "EMAIL_SIGNIN":
        guard let given = body.truthy("email") else { throw FirebaseError.bad("MISSING_EMAIL") }
        email = FirebaseRules.canonicalEmail(given)
      case "PASSWORD_RESET":
        guard let given = body.truthy("email") else { throw FirebaseError.bad("MISSING_EMAIL") }
        email = FirebaseRules.canonicalEmail(given)
        if project.user(email: email) == nil, emailPrivacy(project) {
          return ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(email)]
        }
        try require(project.user(email: email) != nil, "EMAIL_NOT_FOUND")
      case "VERIFY_EMAIL":
        if returnOobLink && !body.isTruthy("idToken") {
          guard let given = body.truthy("email") else { throw FirebaseError.bad("MISSING_EMAIL") }
          email = FirebaseRules.canonicalEmail(given)
          try require(project.user(email: email) != nil, "USER_NOT_FOUND")
        } else {
          let user = try parseIdToken(project, body.string("idToken") ?? "").user
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
          let user = try parseIdToken(project, idToken).user
          guard let current = user.email else { throw FirebaseError.bad("MISSING_EMAIL") }
          email = current
        }
        try require(project.user(email: newEmail ?? "") == nil, "EMAIL_EXISTS")
      default:
        throw FirebaseError.notImplemented(requestType)
      }
      let oob = try createOob(
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

  /// Stores a code with its action link and, unless the link is returned to an admin, "sends" the
  /// mail: a record in the shared outbox (the official emulator logs the link instead).
  @discardableResult
  func createOob(
    _ project: FirebaseProject, request: ServerRequest, email: String, newEmail: String?,
    requestType: String, continueUrl: String? = nil, mail: Bool = true
  ) throws -> FirebaseOob {
    if mail { try takeMailQuota(requestType) }
    let origin = emulatorOrigin(request)
    let oob = try project.createOob(
      email: email, newEmail: newEmail, requestType: requestType,
      createdAt: FirebaseTime.milliseconds(now)
    ) { code in
      var items = [
        ("mode", FirebaseOob.mode(for: requestType)), ("lang", "en"), ("oobCode", code),
        ("apiKey", "fake-api-key"),
      ]
      if let continueUrl { items.append(("continueUrl", continueUrl)) }
      if let tenantId = project.tenantId { items.append(("tenantId", tenantId)) }
      return origin + "/emulator/action?" + items.map { $0.0 + "=" + Self.formEncode($0.1) }.joined(separator: "&")
    }
    if mail {
      // A verify-and-change mail goes to the new address.
      let recipient = requestType == "VERIFY_AND_CHANGE_EMAIL" ? (newEmail ?? email) : email
      outbox.record(
        OutboxMessage(
          side: .firebase, kind: requestType, email: recipient, code: oob.oobCode,
          link: oob.oobLink, time: now))
    }
    return oob
  }

  /// Like production only: a password-reset code works for one hour (`EXPIRED_OOB_CODE` after).
  /// The official emulator's codes never expire.
  func requireLive(_ oob: FirebaseOob, at time: Date) throws {
    guard mode.likeProduction, oob.requestType == "PASSWORD_RESET", let createdAt = oob.createdAt else { return }
    try require(FirebaseTime.milliseconds(time) - createdAt <= Self.resetCodeLifetimeMs, "EXPIRED_OOB_CODE")
  }

  static let resetCodeLifetimeMs = 3_600_000

  /// `URLSearchParams` encoding (spaces as `+`).
  private static func formEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "*"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      case UInt8(ascii: " "): out += "+"
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }

  func resetPassword(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    guard let code = body.truthy("oobCode") else { throw FirebaseError.bad("MISSING_OOB_CODE") }
    let newPassword = body.truthy("newPassword")
    let newHash = preHash(newPassword, projectId: call.projectId)
    let timestamp = now
    return try state.with(call.projectId) { project in
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
