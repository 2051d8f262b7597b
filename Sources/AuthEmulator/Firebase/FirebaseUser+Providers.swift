import JSONKit

/// A federated provider of an account (`ProviderUserInfo` of google.com, apple.com, …). As
/// production does, `federatedId` is the raw id.
struct FirebaseProviderInfo: Equatable, Sendable {
  var providerId: String
  var rawId: String
  var email: String?
  var displayName: String?
  var photoUrl: String?
  var screenName: String?

  var json: JSON {
    var object = JSONObject()
    object["providerId"] = .string(providerId)
    object["rawId"] = .string(rawId)
    object["federatedId"] = .string(rawId)
    if let displayName { object["displayName"] = .string(displayName) }
    if let photoUrl { object["photoUrl"] = .string(photoUrl) }
    if let email { object["email"] = .string(email) }
    if let screenName { object["screenName"] = .string(screenName) }
    return .object(object)
  }

  init(
    providerId: String, rawId: String, email: String? = nil, displayName: String? = nil, photoUrl: String? = nil,
    screenName: String? = nil
  ) {
    self.providerId = providerId
    self.rawId = rawId
    self.email = email
    self.displayName = displayName
    self.photoUrl = photoUrl
    self.screenName = screenName
  }

  init?(json: JSON) {
    guard let providerId = json["providerId"]?.string, let rawId = json["rawId"]?.string else { return nil }
    self.init(
      providerId: providerId, rawId: rawId, email: json["email"]?.string, displayName: json["displayName"]?.string,
      photoUrl: json["photoUrl"]?.string, screenName: json["screenName"]?.string)
  }
}

/// A TOTP second factor (`MfaEnrollment` with `totpInfo`). The shared secret is kept for
/// verification and never shown after enrolment.
struct FirebaseMfaEnrollment: Equatable, Sendable {
  var mfaEnrollmentId: String
  var displayName: String?
  /// RFC 3339, as `enrolledAt` is sent.
  var enrolledAt: String
  var secret: String

  /// As `accounts:lookup`, `batchGet` and a sign-in's `mfaInfo` show it.
  var json: JSON {
    var object = JSONObject()
    object["mfaEnrollmentId"] = .string(mfaEnrollmentId)
    if let displayName { object["displayName"] = .string(displayName) }
    object["enrolledAt"] = .string(enrolledAt)
    object["totpInfo"] = [:]
    return .object(object)
  }

  var storageJSON: JSON {
    [
      "mfaEnrollmentId": .string(mfaEnrollmentId), "displayName": .optional(displayName),
      "enrolledAt": .string(enrolledAt),
      "secret": .string(secret),
    ]
  }

  init(mfaEnrollmentId: String, displayName: String?, enrolledAt: String, secret: String) {
    self.mfaEnrollmentId = mfaEnrollmentId
    self.displayName = displayName
    self.enrolledAt = enrolledAt
    self.secret = secret
  }

  init?(storage json: JSON) {
    guard let id = json["mfaEnrollmentId"]?.string, let enrolledAt = json["enrolledAt"]?.string,
      let secret = json["secret"]?.string
    else { return nil }
    self.init(mfaEnrollmentId: id, displayName: json["displayName"]?.string, enrolledAt: enrolledAt, secret: secret)
  }
}
