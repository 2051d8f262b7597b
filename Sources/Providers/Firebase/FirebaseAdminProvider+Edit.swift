import AuthCore
import Essentials
import JSONKit

/// `user set-email`, `user update`, and pending e-mail changes. Identity Toolkit's account record
/// has no pending new address: only an emulator shows one, as a `VERIFY_AND_CHANGE_EMAIL` code in
/// `GET /emulator/v1/projects/{id}/oobCodes` (the official emulator's list, which authsh's serves too).
extension FirebaseAdminProvider {
  package func setEmail(_ user: AdminUser, to email: String, confirmed: Bool) async throws -> AdminUser {
    // Firebase marks a changed address unverified unless told otherwise in the same call.
    try await update(user, ["email": .string(email.trimmingWhitespace), "emailVerified": .bool(confirmed)])
  }

  package func update(_ user: AdminUser, with changes: AccountUpdate) async throws -> AdminUser {
    if !changes.metadata.isEmpty {
      throw AuthError(
        .notSupported, message: "Firebase accounts have no metadata of their own (Supabase's user_metadata).",
        hint: "Use --name for the display name, or --claims for custom claims (they are in every ID token).")
    }
    var body = JSONObject()
    if let name = changes.name {
      // An empty name removes it, as the Admin SDKs send `deleteAttribute: ["DISPLAY_NAME"]`.
      if name.isEmpty { body["deleteAttribute"] = ["DISPLAY_NAME"] } else { body["displayName"] = .string(name) }
    }
    if !changes.claims.isEmpty || !changes.appMetadata.isEmpty {
      // Custom claims are written whole (as `setCustomUserClaims` does): merged here into what the account has.
      var claims = user.claims?.object ?? JSONObject()
      claims = AccountUpdate.merged(claims, changes.appMetadata)
      claims = AccountUpdate.merged(claims, changes.claims)
      body["customAttributes"] = .string(JSON.object(claims).compactText)
    }
    if let phone = changes.phone {
      if phone.isEmpty { body["deleteProvider"] = ["phone"] } else { body["phoneNumber"] = .string(phone) }
    }
    guard !body.isEmpty else { return user }
    return try await update(user, .object(body))
  }

  func withPendingChange(_ user: AdminUser, _ codes: [JSON]) -> AdminUser {
    var user = user
    if let code = codes.last(where: {
      $0["requestType"]?.string == "VERIFY_AND_CHANGE_EMAIL"
        && $0["email"]?.string?.lowercased() == user.email.lowercased()
    }) {
      user.pendingEmail = code["newEmail"]?.string
    }
    return user
  }

  package func accountChangingEmail(to email: String) async throws -> (user: AdminUser?, complete: Bool) {
    guard emulatorHost != nil else { return (nil, false) }
    let wanted = email.trimmingWhitespace.lowercased()
    let codes = await pendingCodes()
    guard
      let code = codes.last(where: {
        $0["requestType"]?.string == "VERIFY_AND_CHANGE_EMAIL" && $0["newEmail"]?.string?.lowercased() == wanted
      }), let old = code["email"]?.string, let found = try await user(.email(old))
    else { return (nil, true) }
    return (found, true)
  }

  /// The emulator's out-of-band codes, oldest first; empty when not an emulator or unreadable
  /// (never a reason for a lookup to fail).
  func pendingCodes() async -> [JSON] {
    guard let host = emulatorHost, let project = projectId else { return [] }
    let tenantPath = tenantId.map { "/tenants/" + Self.pathSegment($0) } ?? ""
    guard
      let url = URL(string: "http://\(host)/emulator/v1/projects/\(Self.pathSegment(project))\(tenantPath)/oobCodes")
    else { return [] }
    let client = self.client
    let read: @Sendable () async throws -> JSON = {
      let response = try await client.send("GET", url, headers: [("Accept", "application/json")])
      guard response.status == 200 else { throw WireBody.serverError(response) }
      return try JSON.parse(bytes: response.body)
    }
    // In a batch of lookups the codes are read once, not once per account.
    let json: JSON?
    if let snapshot = MailSnapshot.current {
      json = try? await snapshot.json(url, read)
    } else {
      json = try? await read()
    }
    return json?["oobCodes"]?.array ?? []
  }
}
