import AuthCore
import JSONKit

/// Identity Toolkit account records (`accounts:lookup`, `accounts:batchGet`) → `AdminUser`.
enum FirebaseAdminDecoding {
  static func user(_ json: JSON, response: HTTPResponse) throws -> AdminUser {
    guard json.object != nil else { throw WireBody.missing("users[]", in: response) }
    guard let id = json["localId"]?.string, !id.isEmpty else { throw WireBody.missing("users[].localId", in: response) }
    let identities = (json["providerUserInfo"]?.array ?? []).compactMap(identity)
    // "Has a password" is a password hash (or the time one was set), not the provider list: an
    // e-mail-link user is listed with the `password` provider and has no hash.
    let passwordSet =
      json["passwordHash"]?.string?.isEmpty == false || json["passwordUpdatedAt"].map { !$0.isNull } == true
    var methods: [String] = []
    func add(_ method: String) { if !methods.contains(method) { methods.append(method) } }
    if passwordSet { add("password") }
    if json["emailLinkSignin"]?.bool == true { add("email_link") }
    for identity in identities where identity.provider != "password" { add(identity.provider) }
    let email = json["email"]?.string ?? ""
    var user = AdminUser(
      id: id, email: email, confirmed: json["emailVerified"]?.bool ?? false,
      createdAt: json["createdAt"].flatMap(IdentityToolkitDecoding.millis),
      lastSignInAt: json["lastLoginAt"].flatMap(IdentityToolkitDecoding.millis),
      disabled: json["disabled"]?.bool ?? false, methods: methods,
      name: json["displayName"]?.string.flatMap { $0.isEmpty ? nil : $0 })
    user.claims = json["customAttributes"]?.string.flatMap(customAttributes)
    user.phone = json["phoneNumber"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    user.identities = identities
    user.factors = (json["mfaInfo"]?.array ?? []).compactMap(factor)
    user.sso = identities.contains { $0.provider.hasPrefix("saml.") || $0.provider.hasPrefix("oidc.") }
    // An anonymous account has no e-mail, phone or provider at all.
    let phone = json["phoneNumber"]?.string ?? ""
    if email.isEmpty, phone.isEmpty, identities.isEmpty, !passwordSet {
      user.anonymous = true
      user.methods = ["anonymous"]
    }
    return user
  }

  static func identity(_ info: JSON) -> AdminIdentity? {
    guard let providerId = info["providerId"]?.string, !providerId.isEmpty else { return nil }
    let subject = info["rawId"]?.string ?? info["federatedId"]?.string ?? info["phoneNumber"]?.string
    return AdminIdentity(provider: method(providerId), subject: subject, email: info["email"]?.string)
  }

  /// An `mfaInfo[]` enrolment: TOTP (`totpInfo`) or SMS (`phoneInfo`); always verified.
  static func factor(_ info: JSON) -> AuthFactor? {
    guard let id = info["mfaEnrollmentId"]?.string, !id.isEmpty else { return nil }
    let kind: AuthFactor.Kind = info["totpInfo"] != nil ? .totp : info["phoneInfo"] != nil ? .phone : .other
    let name = info["displayName"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    let created = info["enrolledAt"]?.string.map { Timestamps.normalize($0) }
    return AuthFactor(id: id, kind: kind, name: name, status: .verified, createdAt: created)
  }

  /// Neutral method names: `password`, `google`, `github`, `apple`, `phone`; other `x.com`
  /// providers lose the `.com`; OIDC / SAML ids stay as they are.
  static func method(_ providerId: String) -> String {
    switch providerId {
    case "password": return "password"
    case "google.com": return "google"
    case "github.com": return "github"
    case "apple.com": return "apple"
    case "phone": return "phone"
    default: return providerId.hasSuffix(".com") ? String(providerId.dropLast(4)) : providerId
    }
  }

  /// The custom claims as JSON; text that is not JSON is kept as a string.
  static func customAttributes(_ text: String) -> JSON? {
    guard !text.trimmingWhitespace.isEmpty else { return nil }
    return (try? JSON.parse(text)) ?? .string(text)
  }
}

/// Identity Toolkit errors on admin calls: credential and permission problems are configuration
/// errors naming who asked and for which project; the rest as for the client API.
enum FirebaseAdminErrors {
  enum Call { case lookup, list, oob, update, create, delete, settings }

  static let permissionCodes: Set<String> = [
    "PERMISSION_DENIED", "INSUFFICIENT_PERMISSION", "CREDENTIAL_MISMATCH", "UNAUTHENTICATED",
  ]

  static func error(from response: HTTPResponse, call: Call, principal: String, projectId: String) -> AuthError {
    let json = try? JSON.parse(bytes: response.body)
    let envelope = json?["error"]
    let message = envelope?["message"]?.string ?? envelope?.string ?? ""
    let (code, _) = IdentityToolkitErrorMapping.split(message)
    let status = envelope?["status"]?.string ?? ""
    let denied =
      response.status == 401 || response.status == 403 || permissionCodes.contains(code)
      || message.hasPrefix("Request had invalid authentication credentials")
    if denied, response.status < 500 {
      return permission(
        code: code.isEmpty ? status : code, message: message, httpStatus: response.status,
        principal: principal, projectId: projectId)
    }
    switch code {
    case "USER_NOT_FOUND", "EMAIL_NOT_FOUND":
      return AuthError(
        .userNotFound, message: "No such account (it may have been deleted meanwhile).", providerCode: code,
        status: response.status)
    default:
      return IdentityToolkitErrorMapping.error(from: response, call: .other)
    }
  }

  static func permission(code: String, message: String, httpStatus: Int, principal: String, projectId: String)
    -> AuthError
  {
    let reason: String
    let hint: String
    let unauthenticated =
      code == "UNAUTHENTICATED" || httpStatus == 401
      || message.hasPrefix("Request had invalid authentication credentials")
    if code == "CREDENTIAL_MISMATCH" {
      reason = "the credential belongs to another project"
      hint =
        "Use a service-account file of project '\(projectId)', or set FIREBASE_PROJECT_ID to the project of the file."
    } else if unauthenticated {
      reason = "the access token was not accepted"
      hint = "Check GOOGLE_APPLICATION_CREDENTIALS / credentials_file: the key may have been deleted or disabled."
    } else {
      reason = "it lacks permission"
      hint = "Grant it the Firebase Authentication Admin role (roles/firebaseauth.admin) in project '\(projectId)'."
    }
    return AuthError(
      .configError,
      message: "Firebase refused the admin request for project '\(projectId)' sent as \(principal): \(reason).",
      providerCode: code.isEmpty ? nil : code, status: httpStatus, detail: message.isEmpty ? nil : message, hint: hint)
  }
}
