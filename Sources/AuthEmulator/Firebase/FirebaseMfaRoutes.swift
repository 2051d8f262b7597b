import Essentials
import JSONKit
import OneTimeCode

/// TOTP second factors, as Identity Platform serves them (`v2/accounts/mfaEnrollment:*`,
/// `mfaSignIn:*`; shapes of the v2 API spec). The official emulator serves phone factors only;
/// phone factors are refused here the way it refuses them when SMS MFA is off.
struct FirebaseMfaRoutes: Sendable {
  let context: FirebaseContext

  /// How long a started enrolment can be finished (`finalizeEnrollmentTime`).
  static let totpEnrollmentLifetime: TimeInterval = 600
  /// Identity Platform's `adjacentIntervals` default: codes of 5 steps either side are accepted.
  static let totpAdjacentIntervals = 5
  /// At most this many second factors per account (`SECOND_FACTOR_LIMIT_EXCEEDED`).
  static let maxSecondFactors = 5
  static let smsDisabled = "OPERATION_NOT_ALLOWED : SMS based MFA not enabled."
  static let ineligibleFirstFactors: Set<String> = ["anonymous", "phone", "custom", "gc.apple.com"]

  // MARK: - Enrolment

  func mfaEnrollmentStart(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    guard let idToken = body.truthy("idToken") else { throw FirebaseError.bad("MISSING_ID_TOKEN") }
    let timestamp = context.now
    if body.has("totpEnrollmentInfo") { try requireTOTPEnabled(call) }
    return try context.state.with(call.projectId) { project in
      let (user, token) = try context.parseIdToken(project, idToken)
      try requireEligible(user, provider: token.provider)
      if body.has("phoneEnrollmentInfo") { throw FirebaseError.bad(Self.smsDisabled) }
      try require(body.has("totpEnrollmentInfo"), "INVALID_ARGUMENT : ((Missing totpEnrollmentInfo.))")
      try require(user.mfaInfo.count < Self.maxSecondFactors, Self.limitExceeded)
      let session = FirebaseTotpSession(
        sessionInfo: FirebaseRandom.base64URL(96), localId: user.localId, secret: TOTP.newSecret(),
        expiresAt: timestamp.addingTimeInterval(Self.totpEnrollmentLifetime))
      try project.saveTotpSession(session)
      return [
        "totpSessionInfo": [
          "sharedSecretKey": .string(session.secret), "verificationCodeLength": 6, "hashingAlgorithm": "SHA1",
          "periodSec": 30, "sessionInfo": .string(session.sessionInfo),
          "finalizeEnrollmentTime": .string(FirebaseTime.iso8601(session.expiresAt)),
        ]
      ]
    }
  }

  func mfaEnrollmentFinalize(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    guard let idToken = body.truthy("idToken") else { throw FirebaseError.bad("MISSING_ID_TOKEN") }
    let timestamp = context.now
    let window = totpWindow(call)
    return try context.state.with(call.projectId) { project in
      var (user, token) = try context.parseIdToken(project, idToken)
      try requireEligible(user, provider: token.provider)
      if body.has("phoneVerificationInfo") { throw FirebaseError.bad(Self.smsDisabled) }
      guard let info = body["totpVerificationInfo"]?.object else {
        throw FirebaseError.bad("INVALID_ARGUMENT : ((Missing totpVerificationInfo.))")
      }
      guard let sessionInfo = info["sessionInfo"]?.string, !sessionInfo.isEmpty else {
        throw FirebaseError.bad("MISSING_SESSION_INFO")
      }
      guard let code = info["verificationCode"]?.string, !code.isEmpty else { throw FirebaseError.bad("MISSING_CODE") }
      guard let session = project.totpSessions[sessionInfo], session.localId == user.localId else {
        throw FirebaseError.bad("INVALID_SESSION_INFO")
      }
      guard timestamp <= session.expiresAt else {
        try project.deleteTotpSession(sessionInfo)
        throw FirebaseError.bad("SESSION_EXPIRED")
      }
      try require(
        TOTP.verify(code, secret: session.secret, at: timestamp, window: window), "INVALID_CODE")
      try require(user.mfaInfo.count < Self.maxSecondFactors, Self.limitExceeded)
      var enrollmentId = FirebaseRandom.alphanumeric(28)
      while user.mfaInfo.contains(where: { $0.mfaEnrollmentId == enrollmentId }) {
        enrollmentId = FirebaseRandom.alphanumeric(28)
      }
      user.mfaInfo.append(
        FirebaseMfaEnrollment(
          mfaEnrollmentId: enrollmentId, displayName: body.string("displayName"),
          enrolledAt: FirebaseTime.iso8601(timestamp),
          secret: session.secret))
      try project.save(user)
      try project.deleteTotpSession(sessionInfo)
      let issued = try context.issueTokens(
        project, user, provider: token.provider,
        secondFactor: FirebaseSecondFactor(identifier: enrollmentId, provider: "totp"))
      return ["idToken": issued.tokens["idToken"] ?? .null, "refreshToken": issued.tokens["refreshToken"] ?? .null]
    }
  }

  func mfaEnrollmentWithdraw(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    guard let idToken = body.truthy("idToken") else { throw FirebaseError.bad("MISSING_ID_TOKEN") }
    return try context.state.with(call.projectId) { project in
      var (user, token) = try context.parseIdToken(project, idToken)
      let kept = user.mfaInfo.filter { $0.mfaEnrollmentId != body.string("mfaEnrollmentId") }
      try require(!user.mfaInfo.isEmpty && kept.count < user.mfaInfo.count, "MFA_ENROLLMENT_NOT_FOUND")
      user.mfaInfo = kept
      try project.save(user)
      // `WithdrawMfaResponse`: the two tokens (the official emulator adds expiresIn; production does not).
      let issued = try context.issueTokens(project, user, provider: token.provider)
      return ["idToken": issued.tokens["idToken"] ?? .null, "refreshToken": issued.tokens["refreshToken"] ?? .null]
    }
  }

  private static let limitExceeded =
    "SECOND_FACTOR_LIMIT_EXCEEDED : The maximum number of allowed second factors on a user has been exceeded."

  private func requireEligible(_ user: FirebaseUser, provider: String) throws {
    try require(
      !Self.ineligibleFirstFactors.contains(provider),
      "UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
    try require(
      user.emailVerified == true, "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
  }

  // MARK: - Sign-in

  /// `parsePendingCredential`.
  private func pendingUser(_ project: FirebaseProject, _ credential: String) throws -> (
    user: FirebaseUser, provider: String
  ) {
    guard let data = Base64.decode(credential), let record = try? JSON.parse(bytes: Array(data)),
      record["_AuthEmulatorMfaPendingCredential"]?.string != nil, let localId = record["localId"]?.string
    else { throw FirebaseError.bad("INVALID_MFA_PENDING_CREDENTIAL") }
    try require(
      record["projectId"]?.string == project.projectId,
      "INVALID_PROJECT_ID : Project ID does not match MFA pending credential.")
    guard let user = project.user(localId: localId) else { throw FirebaseError.bad("INVALID_MFA_PENDING_CREDENTIAL") }
    return (user, record["signInProvider"]?.string ?? FirebaseTokens.passwordProvider)
  }

  /// A TOTP factor needs no start; a phone one would (SMS MFA is off here).
  func mfaSignInStart(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    guard let credential = body.truthy("mfaPendingCredential") else {
      throw FirebaseError.bad("MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
    }
    guard let enrollmentId = body.truthy("mfaEnrollmentId") else {
      throw FirebaseError.bad("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
    }
    return try context.state.with(call.projectId) { project in
      let (user, _) = try pendingUser(project, credential)
      try require(user.mfaInfo.contains { $0.mfaEnrollmentId == enrollmentId }, "MFA_ENROLLMENT_NOT_FOUND")
      throw FirebaseError.bad("INVALID_ARGUMENT : MFA provider not supported!")
    }
  }

  func mfaSignInFinalize(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    guard let credential = body.truthy("mfaPendingCredential") else {
      throw FirebaseError.bad("MISSING_CREDENTIAL : Please set MFA Pending Credential.")
    }
    if body.has("phoneVerificationInfo") { throw FirebaseError.bad(Self.smsDisabled) }
    guard let info = body["totpVerificationInfo"]?.object else {
      throw FirebaseError.bad("INVALID_ARGUMENT : MFA provider not supported!")
    }
    guard let enrollmentId = body.truthy("mfaEnrollmentId") else {
      throw FirebaseError.bad("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
    }
    guard let code = info["verificationCode"]?.string, !code.isEmpty else { throw FirebaseError.bad("MISSING_CODE") }
    let timestamp = context.now
    let window = totpWindow(call)
    return try context.state.with(call.projectId) { project in
      var (user, provider) = try pendingUser(project, credential)
      guard let enrollment = user.mfaInfo.first(where: { $0.mfaEnrollmentId == enrollmentId }) else {
        throw FirebaseError.bad("MFA_ENROLLMENT_NOT_FOUND")
      }
      let guessKey = project.stateKey + "/" + user.localId
      try context.checkSecondFactorGuesses(guessKey)
      let right = TOTP.verify(code, secret: enrollment.secret, at: timestamp, window: window)
      context.recordSecondFactorGuess(guessKey, right: right)
      try require(right, "INVALID_CODE")
      try require(user.disabled != true, "USER_DISABLED")
      user.lastLoginAt = FirebaseTime.milliseconds(timestamp)
      let issued = try context.issueTokens(
        project, user, provider: provider,
        secondFactor: FirebaseSecondFactor(identifier: enrollmentId, provider: "totp"))
      return ["idToken": issued.tokens["idToken"] ?? .null, "refreshToken": issued.tokens["refreshToken"] ?? .null]
    }
  }

  // MARK: - Admin: `accounts:update` with `mfa`

  /// `mfa.enrollments`: the factors to keep, by `mfaEnrollmentId` (a new display name is taken);
  /// an empty list (or none) removes every factor. TOTP secrets cannot be set this way.
  static func applyMfaUpdate(_ mfa: JSON, to user: inout FirebaseUser) throws {
    let wanted = mfa["enrollments"]?.array ?? []
    var kept: [FirebaseMfaEnrollment] = []
    for item in wanted {
      if item["phoneInfo"] != nil { throw FirebaseError.bad(smsDisabled) }
      guard let id = item["mfaEnrollmentId"]?.string, !id.isEmpty else {
        throw FirebaseError.bad("INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
      }
      try require(!kept.contains { $0.mfaEnrollmentId == id }, "DUPLICATE_MFA_ENROLLMENT_ID")
      guard var enrollment = user.mfaInfo.first(where: { $0.mfaEnrollmentId == id }) else {
        throw FirebaseError.bad("MFA_ENROLLMENT_NOT_FOUND")
      }
      if let name = item["displayName"]?.string { enrollment.displayName = name }
      kept.append(enrollment)
    }
    user.mfaInfo = kept
  }

  // MARK: - The project's `mfa` config

  /// The project (a tenant's parent project) must have TOTP on.
  func requireTOTPEnabled(_ call: FirebaseCall) throws {
    let likeProduction = context.mode.likeProduction
    let projectKey = FirebaseProject.parse(stateKey: call.projectId).projectId
    guard context.state.with(projectKey, { $0.totpIntervals(likeProduction: likeProduction) }) == nil else { return }
    var refusal = FirebaseError.bad(FirebaseAPI.totpDisabled)
    refusal.status = "INVALID_ARGUMENT"
    throw refusal
  }

  /// Steps either side of now a code may come from: the project's `adjacentIntervals` once set.
  func totpWindow(_ call: FirebaseCall) -> Int {
    let likeProduction = context.mode.likeProduction
    let projectKey = FirebaseProject.parse(stateKey: call.projectId).projectId
    return context.state.with(projectKey) { $0.totpIntervals(likeProduction: likeProduction) }
      ?? Self.totpAdjacentIntervals
  }
}
