import JSONKit

// Documents kept in the `--state` store. Field names are the emulator's own (not a wire format).

func micros(_ value: Micros?) -> JSON { value.map { .int(Int($0)) } ?? .null }
/// A stored time in microseconds; out of ±292 000 years (a corrupt file) reads as absent, so
/// formatting it later cannot overflow.
func micros(_ json: JSON?) -> Micros? {
  json?.int.flatMap { $0 > -9_000_000_000_000_000_000 && $0 < 9_000_000_000_000_000_000 ? Micros($0) : nil }
}

extension SBUser {
  var document: JSON {
    var object = JSONObject()
    object["id"] = .string(id)
    object["aud"] = .string(aud)
    object["role"] = .string(role)
    object["email"] = .string(email)
    object["phone"] = .string(phone)
    object["phone_confirmed_at"] = micros(phoneConfirmedAt)
    object["phone_change"] = .string(phoneChange)
    object["phone_change_token"] = .string(phoneChangeToken)
    object["phone_change_sent_at"] = micros(phoneChangeSentAt)
    object["password_hash"] = .optional(passwordHash)
    object["email_confirmed_at"] = micros(emailConfirmedAt)
    object["invited_at"] = micros(invitedAt)
    object["confirmation_token"] = .string(confirmationToken)
    object["confirmation_sent_at"] = micros(confirmationSentAt)
    object["recovery_token"] = .string(recoveryToken)
    object["recovery_sent_at"] = micros(recoverySentAt)
    object["email_change_token"] = .string(emailChangeToken)
    object["email_change_token_current"] = .string(emailChangeTokenCurrent)
    object["email_change_confirm_status"] = .int(emailChangeConfirmStatus)
    object["new_email"] = .string(newEmail)
    object["email_change_sent_at"] = micros(emailChangeSentAt)
    object["last_sign_in_at"] = micros(lastSignInAt)
    object["app_metadata"] = .object(appMetadata)
    object["user_metadata"] = .object(userMetadata)
    if let identity { object["identity"] = identity.document }
    if !otherIdentities.isEmpty { object["other_identities"] = .array(otherIdentities.map(\.document)) }
    if !factors.isEmpty { object["factors"] = .array(factors.map(\.document)) }
    if isSSOUser { object["is_sso_user"] = true }
    object["created_at"] = micros(createdAt)
    object["updated_at"] = micros(updatedAt)
    object["banned_until"] = micros(bannedUntil)
    if let deletedAt { object["deleted_at"] = micros(deletedAt) }
    object["is_anonymous"] = .bool(isAnonymous)
    return .object(object)
  }

  init?(document json: JSON) {
    guard let id = json["id"]?.string, let email = json["email"]?.string,
      let createdAt = micros(json["created_at"]), let updatedAt = micros(json["updated_at"])
    else { return nil }
    self.init(
      id: id, email: email, appMetadata: json["app_metadata"]?.object ?? JSONObject(),
      userMetadata: json["user_metadata"]?.object ?? JSONObject(), createdAt: createdAt, updatedAt: updatedAt)
    aud = json["aud"]?.string ?? aud
    role = json["role"]?.string ?? role
    phone = json["phone"]?.string ?? ""
    phoneConfirmedAt = micros(json["phone_confirmed_at"])
    phoneChange = json["phone_change"]?.string ?? ""
    phoneChangeToken = json["phone_change_token"]?.string ?? ""
    phoneChangeSentAt = micros(json["phone_change_sent_at"])
    passwordHash = json["password_hash"]?.string
    emailConfirmedAt = micros(json["email_confirmed_at"])
    invitedAt = micros(json["invited_at"])
    confirmationToken = json["confirmation_token"]?.string ?? ""
    confirmationSentAt = micros(json["confirmation_sent_at"])
    recoveryToken = json["recovery_token"]?.string ?? ""
    recoverySentAt = micros(json["recovery_sent_at"])
    emailChangeToken = json["email_change_token"]?.string ?? ""
    emailChangeTokenCurrent = json["email_change_token_current"]?.string ?? ""
    emailChangeConfirmStatus = json["email_change_confirm_status"]?.int ?? 0
    newEmail = json["new_email"]?.string ?? ""
    emailChangeSentAt = micros(json["email_change_sent_at"])
    lastSignInAt = micros(json["last_sign_in_at"])
    identity = json["identity"].flatMap(SBIdentity.init(document:))
    otherIdentities = (json["other_identities"]?.array ?? []).compactMap(SBIdentity.init(document:))
    factors = (json["factors"]?.array ?? []).compactMap(SBFactor.init(document:))
    isSSOUser = json["is_sso_user"]?.bool ?? false
    bannedUntil = micros(json["banned_until"])
    deletedAt = micros(json["deleted_at"])
    isAnonymous = json["is_anonymous"]?.bool ?? false
  }
}

extension SBSession {
  var document: JSON {
    [
      "id": .string(id), "user_id": .string(userID), "created_at": micros(createdAt),
      "updated_at": micros(updatedAt),
      "amr": .array(amr.map { ["method": .string($0.method), "timestamp": .int($0.timestamp)] }),
      "family_revoked": .bool(familyRevoked), "aal": .string(aal), "factor_id": .optional(factorID),
      "refreshed_at": micros(refreshedAt), "user_agent": .string(userAgent), "ip": .string(ip),
    ]
  }

  init?(document json: JSON) {
    guard let id = json["id"]?.string, let userID = json["user_id"]?.string,
      let createdAt = micros(json["created_at"]), let updatedAt = micros(json["updated_at"])
    else { return nil }
    let amr = (json["amr"]?.array ?? []).compactMap { entry -> SBAuthMethod? in
      guard let method = entry["method"]?.string, let timestamp = entry["timestamp"]?.int else { return nil }
      return SBAuthMethod(method: method, timestamp: timestamp)
    }
    self.init(
      id: id, userID: userID, createdAt: createdAt, updatedAt: updatedAt, amr: amr,
      familyRevoked: json["family_revoked"]?.bool ?? false, aal: json["aal"]?.string ?? "aal1",
      factorID: json["factor_id"]?.string, refreshedAt: micros(json["refreshed_at"]),
      userAgent: json["user_agent"]?.string ?? "", ip: json["ip"]?.string ?? "")
  }
}

extension SBRefreshToken {
  var document: JSON {
    [
      "token": .string(token), "session_id": .string(sessionID), "user_id": .string(userID),
      "parent": .optional(parent), "revoked": .bool(revoked), "created_at": micros(createdAt),
      "updated_at": micros(updatedAt), "sequence": .int(Int(sequence)),
    ]
  }

  init?(document json: JSON) {
    guard let token = json["token"]?.string, let sessionID = json["session_id"]?.string,
      let userID = json["user_id"]?.string, let createdAt = micros(json["created_at"]),
      let updatedAt = micros(json["updated_at"]), let sequence = json["sequence"]?.int
    else { return nil }
    self.init(
      token: token, sessionID: sessionID, userID: userID, parent: json["parent"]?.string,
      revoked: json["revoked"]?.bool ?? false, createdAt: createdAt, updatedAt: updatedAt,
      sequence: Int64(sequence))
  }
}

extension SBIdentity {
  var document: JSON {
    [
      "identity_id": .string(identityID), "data": .object(data), "last_sign_in_at": micros(lastSignInAt),
      "created_at": micros(createdAt), "updated_at": micros(updatedAt), "provider": .string(provider),
      "provider_id": .optional(providerID),
    ]
  }

  init?(document json: JSON) {
    guard let identityID = json["identity_id"]?.string, let created = micros(json["created_at"]),
      let updated = micros(json["updated_at"])
    else { return nil }
    self.init(
      identityID: identityID, data: json["data"]?.object ?? JSONObject(),
      lastSignInAt: micros(json["last_sign_in_at"]), createdAt: created, updatedAt: updated,
      provider: json["provider"]?.string ?? "email", providerID: json["provider_id"]?.string)
  }
}
