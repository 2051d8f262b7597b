import Essentials
import JSONKit

/// One account of a project, as the official emulator keeps it (`state.ts` `UserInfo`), except that
/// the password is stored hashed: Firebase's modified scrypt with the project's hash config, or
/// an imported bcrypt / scrypt hash until the first sign-in replaces it.
struct FirebaseUser: Equatable, Sendable {
  var localId: String
  var email: String?
  var emailVerified: Bool?
  var displayName: String?
  var photoUrl: String?
  var phoneNumber: String?
  /// `$fbscrypt$…` (the project's or an imported one) or bcrypt; nil when the account has no password.
  var passwordHash: String?
  /// Milliseconds since the epoch.
  var passwordUpdatedAt: Int?
  /// Seconds since the epoch; ID tokens issued before it are revoked.
  var validSince: Int?
  var disabled: Bool?
  /// Milliseconds since the epoch.
  var createdAt: Int
  /// Milliseconds since the epoch.
  var lastLoginAt: Int?
  var lastRefreshAt: Date?
  /// Custom claims as a JSON object text.
  var customAttributes: String?
  /// The address before the first e-mail change (for RECOVER_EMAIL).
  var initialEmail: String?
  /// Signed in with an e-mail link (`emailLinkSignin`): the `password` provider without a password.
  var emailLinkSignin: Bool?
  /// Federated providers (google.com, apple.com, …), in the order they were linked.
  var federated: [FirebaseProviderInfo] = []
  /// Second factors (TOTP), in enrolment order.
  var mfaInfo: [FirebaseMfaEnrollment] = []

  /// The production redaction of `passwordHash` ("REDACTED" in base64).
  static let redactedPasswordHash = "UkVEQUNURUQ="

  init(localId: String, createdAt: Int) {
    self.localId = localId
    self.createdAt = createdAt
  }

  /// `providerUserInfo`, derived as the emulator maintains it: `password` when the account has an
  /// e-mail and a password, `phone` when it has a phone number.
  var providerUserInfo: [JSON] {
    var providers: [JSON] = []
    if let email, passwordHash != nil || emailLinkSignin == true {
      var info = JSONObject()
      info["providerId"] = "password"
      info["email"] = .string(email)
      info["federatedId"] = .string(email)
      info["rawId"] = .string(email)
      if let displayName { info["displayName"] = .string(displayName) }
      if let photoUrl { info["photoUrl"] = .string(photoUrl) }
      providers.append(.object(info))
    }
    providers += federated.map(\.json)
    if let phoneNumber {
      providers.append(["providerId": "phone", "phoneNumber": .string(phoneNumber), "rawId": .string(phoneNumber)])
    }
    return providers
  }

  /// The account as `accounts:lookup` / `batchGet` return it (password redacted, no salt).
  var publicJSON: JSON { publicJSON(tenantId: nil) }

  /// The same, with `tenantId` for a tenant's account.
  func publicJSON(tenantId: String?) -> JSON {
    var user = JSONObject()
    user["localId"] = .string(localId)
    if let email { user["email"] = .string(email) }
    if let displayName { user["displayName"] = .string(displayName) }
    if let photoUrl { user["photoUrl"] = .string(photoUrl) }
    if let phoneNumber { user["phoneNumber"] = .string(phoneNumber) }
    if passwordHash != nil { user["passwordHash"] = .string(Self.redactedPasswordHash) }
    if let emailVerified { user["emailVerified"] = .bool(emailVerified) }
    if let passwordUpdatedAt { user["passwordUpdatedAt"] = .int(passwordUpdatedAt) }
    user["providerUserInfo"] = .array(providerUserInfo)
    if let validSince { user["validSince"] = .string(String(validSince)) }
    if let disabled { user["disabled"] = .bool(disabled) }
    if let lastLoginAt { user["lastLoginAt"] = .string(String(lastLoginAt)) }
    user["createdAt"] = .string(String(createdAt))
    if let customAttributes { user["customAttributes"] = .string(customAttributes) }
    if let lastRefreshAt { user["lastRefreshAt"] = .string(FirebaseTime.iso8601(lastRefreshAt)) }
    if let initialEmail { user["initialEmail"] = .string(initialEmail) }
    if !mfaInfo.isEmpty { user["mfaInfo"] = .array(mfaInfo.map(\.json)) }
    if emailLinkSignin == true { user["emailLinkSignin"] = true }
    if let tenantId { user["tenantId"] = .string(tenantId) }
    return .object(user)
  }

  /// The account as an admin (service account) reads it: `passwordHash` and `salt` in base64 when
  /// the stored hash is the project's own scrypt; no `passwordHash` when it is an imported hash not
  /// yet replaced by a sign-in (production gives an empty one then).
  func adminJSON(_ project: FirebaseProject) -> JSON {
    guard case .object(var user) = publicJSON(tenantId: project.tenantId), let passwordHash else {
      return publicJSON(tenantId: project.tenantId)
    }
    if let native = project.nativeHash(passwordHash) {
      user["passwordHash"] = .string(Base64.encode(native.hash))
      user["salt"] = .string(Base64.encode(native.salt))
    } else {
      user["passwordHash"] = nil
    }
    return .object(user)
  }

  // MARK: - Storage (the bcrypt hash is stored, never the password)

  func storageJSON(projectId: String) -> JSON {
    var record = JSONObject()
    record["projectId"] = .string(projectId)
    record["localId"] = .string(localId)
    record["email"] = .optional(email)
    record["emailVerified"] = emailVerified.map(JSON.bool) ?? .null
    record["displayName"] = .optional(displayName)
    record["photoUrl"] = .optional(photoUrl)
    record["phoneNumber"] = .optional(phoneNumber)
    record["passwordHash"] = .optional(passwordHash)
    record["passwordUpdatedAt"] = passwordUpdatedAt.map(JSON.int) ?? .null
    record["validSince"] = validSince.map(JSON.int) ?? .null
    record["disabled"] = disabled.map(JSON.bool) ?? .null
    record["createdAt"] = .int(createdAt)
    record["lastLoginAt"] = lastLoginAt.map(JSON.int) ?? .null
    record["lastRefreshAt"] = lastRefreshAt.map { .double($0.timeIntervalSince1970) } ?? .null
    record["customAttributes"] = .optional(customAttributes)
    record["initialEmail"] = .optional(initialEmail)
    if let emailLinkSignin { record["emailLinkSignin"] = .bool(emailLinkSignin) }
    if !federated.isEmpty { record["federated"] = .array(federated.map(\.json)) }
    if !mfaInfo.isEmpty { record["mfaInfo"] = .array(mfaInfo.map(\.storageJSON)) }
    return .object(record)
  }

  static func fromStorage(_ json: JSON) -> (projectId: String, user: FirebaseUser)? {
    guard let projectId = json["projectId"]?.string, let localId = json["localId"]?.string,
      let createdAt = json["createdAt"]?.int
    else { return nil }
    var user = FirebaseUser(localId: localId, createdAt: createdAt)
    user.email = json["email"]?.string
    user.emailVerified = json["emailVerified"]?.bool
    user.displayName = json["displayName"]?.string
    user.photoUrl = json["photoUrl"]?.string
    user.phoneNumber = json["phoneNumber"]?.string
    user.passwordHash = json["passwordHash"]?.string
    user.passwordUpdatedAt = json["passwordUpdatedAt"]?.int
    user.validSince = json["validSince"]?.int
    user.disabled = json["disabled"]?.bool
    user.lastLoginAt = json["lastLoginAt"]?.int
    user.lastRefreshAt = json["lastRefreshAt"]?.double.map(Date.init(timeIntervalSince1970:))
    user.customAttributes = json["customAttributes"]?.string
    user.initialEmail = json["initialEmail"]?.string
    user.emailLinkSignin = json["emailLinkSignin"]?.bool
    user.federated = (json["federated"]?.array ?? []).compactMap(FirebaseProviderInfo.init(json:))
    user.mfaInfo = (json["mfaInfo"]?.array ?? []).compactMap(FirebaseMfaEnrollment.init(storage:))
    return (projectId, user)
  }
}

/// Time formats of the Identity Toolkit wire.
enum FirebaseTime {
  static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded(.down)) }
  static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

  /// `2026-01-02T03:04:05.678Z`, as JavaScript's `Date.toISOString()`.
  static func iso8601(_ date: Date) -> String {
    CivilTime.iso8601(milliseconds: milliseconds(date))
  }
}
