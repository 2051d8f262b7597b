import Essentials
import JSONKit

/// Phone sign-in (`operations.ts` `sendVerificationCode`, `signInWithPhoneNumber`,
/// `verifyPhoneNumber`): the 6-digit code goes to the outbox (kind `sms`, addressed to the number)
/// and to `GET /emulator/v1/projects/{id}/verificationCodes`, as the official emulator lists it.
struct FirebasePhoneRoutes: Sendable {
  let context: FirebaseContext

  func sendVerificationCode(_ call: FirebaseCall) throws -> JSON {
    try require(call.tenantId == nil, "UNSUPPORTED_TENANT_OPERATION")
    // Production answers INVALID_PHONE_NUMBER for a missing number too (firebase-tools follows it).
    guard let phoneNumber = call.body.truthy("phoneNumber"), FirebaseRules.isValidPhoneNumber(phoneNumber) else {
      throw FirebaseError.bad("INVALID_PHONE_NUMBER : Invalid format.")
    }
    let time = context.now
    let pending = try context.state.with(call.projectId) { project -> FirebasePhoneCode in
      try require(
        project.user(phoneNumber: phoneNumber)?.mfaInfo.isEmpty ?? true,
        "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
      return try project.createPhoneCode(phoneNumber: phoneNumber)
    }
    context.outbox.record(
      OutboxMessage(side: .firebase, kind: "sms", email: phoneNumber, code: pending.code, link: "", time: time))
    return ["sessionInfo": .string(pending.sessionInfo)]
  }

  /// The code of `sendVerificationCode` signs the number in, creating the account when there is
  /// none; with an `idToken` it links the number to that account instead.
  func signInWithPhoneNumber(_ call: FirebaseCall) throws -> JSON {
    try require(call.tenantId == nil, "UNSUPPORTED_TENANT_OPERATION")
    let body = call.body
    let timestamp = context.now
    return try context.state.with(call.projectId) { project in
      try require(body.truthy("temporaryProof") == nil, "INVALID_TEMPORARY_PROOF")
      guard let sessionInfo = body.truthy("sessionInfo") else { throw FirebaseError.bad("MISSING_SESSION_INFO") }
      guard let code = body.truthy("code") else { throw FirebaseError.bad("MISSING_CODE") }
      guard let pending = project.phoneCodes[sessionInfo] else { throw FirebaseError.bad("INVALID_SESSION_INFO") }
      try require(ConstantTime.equal(pending.code, code), "INVALID_CODE")
      try project.deletePhoneCode(sessionInfo)
      let phoneNumber = pending.phoneNumber
      let fromPhone = project.user(phoneNumber: phoneNumber)
      let fromIdToken = try body.truthy("idToken").map { try context.parseIdToken(project, $0).user }
      if let fromPhone, let fromIdToken {
        // firebase-tools answers 200 with a `temporaryProof` here; authsh has no use for one.
        try require(fromPhone.localId == fromIdToken.localId, "PHONE_NUMBER_EXISTS")
      }
      var user: FirebaseUser
      let isNewUser = fromIdToken == nil && fromPhone == nil
      if let existing = fromIdToken ?? fromPhone {
        try require(existing.disabled != true, "USER_DISABLED")
        try require(
          existing.mfaInfo.isEmpty,
          "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
        user = existing
      } else {
        user = FirebaseUser(localId: project.newLocalId(), createdAt: FirebaseTime.milliseconds(timestamp))
      }
      user.phoneNumber = phoneNumber
      user.lastLoginAt = FirebaseTime.milliseconds(timestamp)
      try project.save(user)
      var response = JSONObject()
      response["isNewUser"] = .bool(isNewUser)
      response["phoneNumber"] = .string(phoneNumber)
      response["localId"] = .string(user.localId)
      response.merge(try context.issueTokens(project, user, provider: "phone").tokens)
      return .object(response)
    }
  }
}

/// A code sent by `sendVerificationCode`, waiting for `signInWithPhoneNumber` (`state.ts`
/// `PhoneVerificationRecord`).
struct FirebasePhoneCode: Sendable {
  var sessionInfo: String
  var phoneNumber: String
  var code: String
  /// Creation order: `verificationCodes` lists them oldest first.
  var sequence: Int

  var listJSON: JSON {
    ["code": .string(code), "phoneNumber": .string(phoneNumber), "sessionInfo": .string(sessionInfo)]
  }

  func storageJSON(projectId: String) -> JSON {
    [
      "projectId": .string(projectId), "sessionInfo": .string(sessionInfo), "phoneNumber": .string(phoneNumber),
      "code": .string(code), "sequence": .int(sequence),
    ]
  }

  static func fromStorage(_ json: JSON) -> (projectId: String, code: FirebasePhoneCode)? {
    guard let projectId = json["projectId"]?.string, let sessionInfo = json["sessionInfo"]?.string,
      let phoneNumber = json["phoneNumber"]?.string, let code = json["code"]?.string,
      let sequence = json["sequence"]?.int
    else { return nil }
    return (
      projectId, FirebasePhoneCode(sessionInfo: sessionInfo, phoneNumber: phoneNumber, code: code, sequence: sequence)
    )
  }
}

extension FirebaseProject {
  static let phoneCodesTable = "firebase_phone_codes"

  /// `createVerificationCode`: a 226-character base64url `sessionInfo` and 6 random digits.
  func createPhoneCode(phoneNumber: String) throws -> FirebasePhoneCode {
    var sessionInfo = FirebaseRandom.base64URL(226)
    while phoneCodes[sessionInfo] != nil { sessionInfo = FirebaseRandom.base64URL(226) }
    let sequence = (phoneCodes.values.map(\.sequence).max() ?? -1) + 1
    let pending = FirebasePhoneCode(
      sessionInfo: sessionInfo, phoneNumber: phoneNumber, code: EmulatorRandom.otp(), sequence: sequence)
    try store.put(Self.phoneCodesTable, key: storageKey(sessionInfo), pending.storageJSON(projectId: stateKey))
    phoneCodes[sessionInfo] = pending
    return pending
  }

  func deletePhoneCode(_ sessionInfo: String) throws {
    guard phoneCodes[sessionInfo] != nil else { return }
    try store.delete(Self.phoneCodesTable, key: storageKey(sessionInfo))
    phoneCodes[sessionInfo] = nil
  }

  var phoneCodesInOrder: [FirebasePhoneCode] { phoneCodes.values.sorted { $0.sequence < $1.sequence } }
}
