import Essentials
import HTTPServerKit
import JSONKit

/// One Identity Toolkit call after authentication and body validation.
struct FirebaseCall {
  var request: ServerRequest
  var body: FirebaseBody
  /// `Bearer owner`: admin powers (`ctx.security.Oauth2`).
  var privileged: Bool
  /// The state key: the project id, or `PROJECT/tenants/TENANT` for a tenant's user store.
  var projectId: String
  /// The tenant the call is for (path, body `tenantId`, or the ID token's `firebase.tenant`).
  var tenantId: String?
}

/// Validation rules shared by the operations (`operations.ts`, `utils.ts`).
enum FirebaseRules {
  static let passwordMinLength = 6
  static let weakPassword = "WEAK_PASSWORD : Password should be at least 6 characters"

  /// JavaScript `length` (UTF-16 code units) ≥ 6.
  static func isStrongEnough(_ password: String) -> Bool { password.utf16.count >= passwordMinLength }

  /// `^[^@]+@[^@]+$`: the emulator's deliberately loose check.
  /// Exactly one `@`, with something on each side (read on the UTF-8 bytes: a batch checks a
  /// thousand of these under the state lock).
  static func isValidEmail(_ email: String) -> Bool {
    var email = email
    return email.withUTF8 { bytes in
      guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
      return at > 0 && at < bytes.count - 1 && !bytes[(at + 1)...].contains(UInt8(ascii: "@"))
    }
  }

  static func canonicalEmail(_ email: String) -> String { email.lowercased() }

  static func isValidPhoneNumber(_ phone: String) -> Bool { phone.hasPrefix("+") }

  /// Roughly WHATWG `new URL(text)` without a base: a scheme, and a host for the special schemes.
  static func isAbsoluteURI(_ text: String) -> Bool {
    guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else {
      return false
    }
    let scheme = text[..<colon].lowercased()
    guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return false }
    guard ["http", "https", "ws", "wss", "ftp"].contains(scheme) else { return true }
    let afterScheme = text[text.index(after: colon)...].drop { $0 == "/" || $0 == "\\" }
    let authority = afterScheme.prefix { !"/?#\\".contains($0) }
    let host = authority.split(separator: "@").last.map(String.init) ?? ""
    return !host.isEmpty && !host.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" })
  }
}

extension FirebaseAPI {
  private typealias Field = (String, FirebaseBody.FieldType)

  func run(
    _ operation: FirebaseOperation, request: ServerRequest, privileged: Bool, pathProject: String?,
    pathTenant: String? = nil
  ) throws -> JSON {
    if case .unimplemented(let name) = operation {
      throw FirebaseError.notImplemented("\(name) is not implemented in the authsh emulator.")
    }
    let readsBody = ![.batchGet, .getProjects, .getConfig, .listTenants, .getTenant, .deleteTenant].contains(operation)
    var body = readsBody ? try FirebaseBody.parse(request) : FirebaseBody()
    try body.validate(Self.schema(operation))
    var projectId = state.defaultProjectId
    if let target = pathProject ?? body.truthy("targetProjectId") {
      try require(privileged, "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
      projectId = target
    }
    let tenantId = try operation.projectLevel ? nil : context.tenant(of: body, pathTenant: pathTenant)
    if let tenantId, ![.getTenant, .updateTenant, .deleteTenant].contains(operation) {
      try context.requireTenant(projectId: projectId, tenantId: tenantId)
    }
    let call = FirebaseCall(
      request: request, body: body, privileged: privileged,
      projectId: FirebaseProject.stateKey(projectId: projectId, tenantId: tenantId), tenantId: tenantId)
    switch operation {
    case .signUp: return try signIn.signUp(call)
    case .signInWithPassword: return try signIn.signInWithPassword(call)
    case .sendOobCode: return try oob.sendOobCode(call)
    case .resetPassword: return try oob.resetPassword(call)
    case .update: return try updates.update(call)
    case .lookup: return try accounts.lookup(call)
    case .delete: return try accounts.deleteAccount(call)
    case .createAuthUri: return try accounts.createAuthUri(call)
    case .batchGet: return try admin.batchGet(call)
    case .batchDelete: return try admin.batchDelete(call)
    case .batchCreate:
      try require(call.privileged, "INSUFFICIENT_PERMISSION")
      return try batchCreate.batchCreate(call)
    case .query: return try admin.queryAccounts(call)
    case .createSessionCookie: return try admin.createSessionCookie(call)
    case .getProjects: return ["projectId": "12345", "authorizedDomains": ["localhost"]]
    case .getConfig:
      let likeProduction = mode.likeProduction
      return state.with(projectId) { FirebaseAdminRoutes.adminConfig($0, likeProduction: likeProduction) }
    case .updateConfig: return try admin.updateAdminConfig(call)
    case .listTenants: return try tenants.listTenants(call, projectId: projectId)
    case .createTenant: return try tenants.createTenant(call, projectId: projectId)
    case .getTenant, .updateTenant, .deleteTenant:
      return try tenants.manageTenant(operation, call, projectId: projectId)
    case .signInWithEmailLink: return try signIn.signInWithEmailLink(call)
    case .signInWithIdp: return try idp.signInWithIdp(call)
    case .signInWithCustomToken: return try customToken.signInWithCustomToken(call)
    case .sendVerificationCode: return try phone.sendVerificationCode(call)
    case .signInWithPhoneNumber: return try phone.signInWithPhoneNumber(call)
    case .mfaEnrollmentStart: return try mfa.mfaEnrollmentStart(call)
    case .mfaEnrollmentFinalize: return try mfa.mfaEnrollmentFinalize(call)
    case .mfaEnrollmentWithdraw: return try mfa.mfaEnrollmentWithdraw(call)
    case .mfaSignInStart: return try mfa.mfaSignInStart(call)
    case .mfaSignInFinalize: return try mfa.mfaSignInFinalize(call)
    case .unimplemented: throw FirebaseError.notFound
    }
  }

  private static let common: [Field] = [("targetProjectId", .string), ("tenantId", .string), ("idToken", .string)]

  private static func schema(_ operation: FirebaseOperation) -> [Field] {
    let profile: [Field] = [
      ("email", .string), ("password", .string), ("displayName", .string), ("photoUrl", .string),
      ("phoneNumber", .string), ("emailVerified", .bool), ("returnSecureToken", .bool),
    ]
    switch operation {
    case .signUp:
      return common + profile + [("localId", .string), ("disabled", .bool)]
    case .signInWithPassword:
      return common + [
        ("email", .string), ("password", .string), ("returnSecureToken", .bool),
        ("captchaResponse", .string), ("captchaChallenge", .string), ("pendingIdToken", .string),
      ]
    case .sendOobCode:
      return common + [
        ("email", .string), ("newEmail", .string), ("requestType", .enumeration(oobRequestTypes)),
        ("continueUrl", .string), ("canHandleCodeInApp", .bool), ("returnOobLink", .bool),
      ]
    case .resetPassword:
      return common + [("oobCode", .string), ("newPassword", .string), ("email", .string)]
    case .update:
      return common + profile + [
        ("localId", .string), ("oobCode", .string), ("disableUser", .bool), ("customAttributes", .string),
        ("validSince", .string), ("createdAt", .string), ("lastLoginAt", .string),
        ("deleteAttribute", .enumerationArray(userAttributes)), ("deleteProvider", .stringArray), ("mfa", .object),
      ]
    case .lookup:
      return common + [
        ("localId", .stringArray), ("email", .stringArray), ("phoneNumber", .stringArray),
        ("initialEmail", .stringArray),
      ]
    case .delete:
      return common + [("localId", .string)]
    case .createAuthUri:
      return common + [
        ("identifier", .string), ("continueUri", .string), ("providerId", .string), ("sessionId", .string),
      ]
    case .batchDelete:
      return common + [("localIds", .stringArray), ("force", .bool)]
    case .batchCreate:
      return common + [
        ("sanityCheck", .bool), ("allowOverwrite", .bool), ("hashAlgorithm", .string),
        ("signerKey", .string), ("saltSeparator", .string), ("rounds", .integer), ("memoryCost", .integer),
      ]
    case .query:
      return common + [
        ("returnUserInfo", .bool), ("limit", .string), ("offset", .string),
        ("order", .enumeration(["ORDER_UNSPECIFIED", "ASC", "DESC"])),
        (
          "sortBy",
          .enumeration([
            "SORT_BY_FIELD_UNSPECIFIED", "USER_ID", "NAME", "CREATED_AT",
            "LAST_LOGIN_AT", "USER_EMAIL",
          ])
        ),
      ]
    case .createSessionCookie:
      return common + [("validDuration", .string)]
    case .updateConfig:
      return [("signIn", .object), ("emailPrivacyConfig", .object), ("mfa", .object)]
    case .createTenant, .updateTenant:
      return [
        ("displayName", .string), ("allowPasswordSignup", .bool), ("enableEmailLinkSignin", .bool),
        ("enableAnonymousUser", .bool), ("disableAuth", .bool), ("mfaConfig", .object), ("name", .string),
        ("tenantId", .string), ("testPhoneNumbers", .object),
      ]
    case .signInWithEmailLink:
      return common + [("email", .string), ("oobCode", .string)]
    case .signInWithCustomToken:
      return common + [("token", .string), ("returnSecureToken", .bool)]
    case .signInWithIdp:
      return common + [
        ("requestUri", .string), ("postBody", .string), ("returnSecureToken", .bool),
        ("returnIdpCredential", .bool), ("returnRefreshToken", .bool), ("pendingIdToken", .string),
        ("sessionId", .string),
      ]
    case .sendVerificationCode:
      return common + [
        ("phoneNumber", .string), ("recaptchaToken", .string), ("iosReceipt", .string), ("iosSecret", .string),
        ("playIntegrityToken", .string), ("captchaResponse", .string),
      ]
    case .signInWithPhoneNumber:
      return common + [
        ("sessionInfo", .string), ("code", .string), ("phoneNumber", .string), ("temporaryProof", .string),
        ("verificationProof", .string),
      ]
    case .mfaEnrollmentStart:
      return common + [("totpEnrollmentInfo", .object), ("phoneEnrollmentInfo", .object)]
    case .mfaEnrollmentFinalize:
      return common + [("displayName", .string), ("totpVerificationInfo", .object), ("phoneVerificationInfo", .object)]
    case .mfaEnrollmentWithdraw:
      return common + [("mfaEnrollmentId", .string)]
    case .mfaSignInStart:
      return common + [("mfaPendingCredential", .string), ("mfaEnrollmentId", .string), ("phoneSignInInfo", .object)]
    case .mfaSignInFinalize:
      return common + [
        ("mfaPendingCredential", .string), ("mfaEnrollmentId", .string),
        ("totpVerificationInfo", .object), ("phoneVerificationInfo", .object),
      ]
    case .batchGet, .getProjects, .getConfig, .listTenants, .getTenant, .deleteTenant, .unimplemented:
      return []
    }
  }

  static let oobRequestTypes = [
    "OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "VERIFY_EMAIL",
    "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "REVERT_SECOND_FACTOR_ADDITION",
  ]

  static let userAttributes = [
    "USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL", "PASSWORD", "RAW_USER_INFO",
  ]
}

extension JSONObject {
  /// Copies every member of `other` into this object.
  mutating func merge(_ other: JSONObject) {
    for (key, value) in other.pairs { self[key] = value }
  }
}
