import AuthCore
import Essentials
import JSONKit

/// `user export` on Firebase: `accounts:batchGet` pages with the service account, which returns
/// each account's `passwordHash` and `salt`; with the project's hash parameters (the admin v2
/// config's `signIn.hashConfig`, or `--hash-config FILE`) they become GoTrue's `$fbscrypt$` strings.
extension FirebaseAdminProvider: AccountExporting {
  package func accountReader(hashConfig: FirebaseHashConfig?) async throws -> any AccountReader {
    if let hashConfig { return FirebaseAccountReader(provider: self, hashConfig: hashConfig, missingConfig: nil) }
    let (config, why) = await projectHashConfig()
    return FirebaseAccountReader(provider: self, hashConfig: config, missingConfig: why)
  }

  /// The project's (or tenant's) hash parameters; nil with the reason when they cannot be read.
  func projectHashConfig() async -> (FirebaseHashConfig?, String?) {
    let json: JSON
    do {
      (json, _) = try await send("GET", try configURL(), body: nil, as: .settings)
    } catch let error as AuthError {
      return (
        nil, "the project's password-hash parameters could not be read (\(error.message)); pass --hash-config FILE"
      )
    } catch {
      return (nil, "the project's password-hash parameters could not be read; pass --hash-config FILE")
    }
    guard let config = FirebaseHashConfig.from(projectConfig: json) else {
      let partial = json["signIn"]?["hashConfig"] ?? json["hashConfig"]
      if partial?["rounds"] != nil, partial?["signerKey"] == nil {
        // Production leaves the keys out for a caller that may not read them.
        return (
          nil,
          "the project config left out the signer key and salt separator (the credential may not read them); pass --hash-config FILE"
        )
      }
      return (nil, "the project config has no password-hash parameters (signIn.hashConfig); pass --hash-config FILE")
    }
    return (config, nil)
  }

  /// One `accounts:batchGet` page as Identity Toolkit sends it.
  func batchGetRecords(maxResults: Int, pageToken: String?) async throws -> (records: [JSON], next: String?) {
    var items = [URLQueryItem(name: "maxResults", value: String(maxResults))]
    if let pageToken { items.append(URLQueryItem(name: "nextPageToken", value: pageToken)) }
    let (json, response) = try await send(
      "GET", try projectURL("accounts:batchGet", query: items), body: nil, as: .list)
    guard let users = json["users"] else { return ([], nil) }
    guard let records = users.array else { throw WireBody.missing("users", in: response) }
    for record in records where record["localId"]?.string?.isEmpty != false {
      throw WireBody.missing("users[].localId", in: response)
    }
    return (records, json["nextPageToken"]?.string.flatMap { $0.isEmpty ? nil : $0 })
  }
}

/// The pages of a Firebase export; stops with an error when the server repeats a page token.
actor FirebaseAccountReader: AccountReader {
  let provider: FirebaseAdminProvider
  let hashConfig: FirebaseHashConfig?
  /// Why there are no hash parameters (nil when there are).
  let missingConfig: String?
  private var seenTokens: Set<String> = []
  private var hashesWithoutConfig = 0

  init(provider: FirebaseAdminProvider, hashConfig: FirebaseHashConfig?, missingConfig: String?) {
    self.provider = provider
    self.hashConfig = hashConfig
    self.missingConfig = missingConfig
  }

  nonisolated var privacyNotice: String? {
    hashConfig == nil ? nil : "The export holds password hashes and the project's signer key: keep it private."
  }

  var notices: [String] {
    guard let missingConfig, hashesWithoutConfig > 0 else { return [] }
    return [
      "Firebase returned password hashes, but \(missingConfig): the records have password_hash null (see password_note)."
    ]
  }

  func page(after token: String?, size: Int) async throws -> AccountPage {
    let (records, next) = try await provider.batchGetRecords(maxResults: min(max(size, 1), 1000), pageToken: token)
    if let next, !seenTokens.insert(next).inserted {
      throw AuthError(
        .malformedResponse,
        message: "The server repeated a page token after \(seenTokens.count + 1) pages of accounts; stopped the export."
      )
    }
    let accounts = records.map {
      FirebaseExportDecoding.account($0, hashConfig: hashConfig, missingConfig: missingConfig)
    }
    if hashConfig == nil {
      hashesWithoutConfig +=
        records.filter { record in
          FirebaseExportDecoding.nonEmpty(record["passwordHash"]?.string).map {
            $0 != FirebaseExportDecoding.redactedHash
          } ?? false
        }.count
    }
    return AccountPage(accounts: accounts, next: records.isEmpty ? nil : next)
  }

  func close() async {}
}

/// Identity Toolkit account records → portable records.
enum FirebaseExportDecoding {
  static func account(_ json: JSON, hashConfig: FirebaseHashConfig?, missingConfig: String?) -> PortableAccount {
    let identities = (json["providerUserInfo"]?.array ?? []).compactMap { info -> PortableIdentity? in
      guard let provider = info["providerId"]?.string, !provider.isEmpty else { return nil }
      let subject = info["rawId"]?.string ?? info["federatedId"]?.string ?? info["phoneNumber"]?.string
      return PortableIdentity(provider: provider, id: subject, email: info["email"]?.string)
    }
    var providers = identities.map(\.provider)
    let given = nonEmpty(json["passwordHash"]?.string)
    // A caller that may not read hashes gets base64 of "REDACTED" and no salt.
    let redacted = given == redactedHash
    let hash = redacted ? nil : given
    let salt = nonEmpty(json["salt"]?.string)
    let hasPassword = given != nil || json["passwordUpdatedAt"].map { !$0.isNull } == true
    if hasPassword, !providers.contains("password") { providers.insert("password", at: 0) }
    var passwordHash: String?
    var note: String?
    if let hash, let salt, let hashConfig {
      passwordHash = hashConfig.passwordHash(hash: hash, salt: salt)
    } else if hash != nil {
      note =
        "Firebase returned the hash, but "
        + (missingConfig ?? "the project's password-hash parameters are unknown; pass --hash-config FILE")
    } else if redacted {
      note =
        "Firebase returned the hash as REDACTED: the credential may not read password hashes (the Firebase Authentication Admin role can)"
    } else if hasPassword {
      // A credential that may not read hashes gets REDACTED (above); no hash at all with a
      // password set is an imported hash of another kind (bcrypt, …) Firebase has not replaced yet.
      note =
        "no hash until the person signs in once: Firebase keeps an imported hash (bcrypt or another kind) without exporting it, and makes its own at the first sign-in"
    }
    let claims = json["customAttributes"]?.string.flatMap { text -> JSON? in
      guard !text.trimmingWhitespace.isEmpty, let parsed = try? JSON.parse(text), parsed.object?.isEmpty == false else {
        return nil
      }
      return parsed
    }
    let factors = (json["mfaInfo"]?.array ?? []).compactMap { info -> PortableFactor? in
      guard let id = nonEmpty(info["mfaEnrollmentId"]?.string) else { return nil }
      let type = info["totpInfo"] != nil ? "totp" : info["phoneInfo"] != nil ? "phone" : "other"
      return PortableFactor(id: id, type: type, friendlyName: nonEmpty(info["displayName"]?.string))
    }
    return PortableAccount(
      id: json["localId"]?.string ?? "", email: nonEmpty(json["email"]?.string),
      emailVerified: json["emailVerified"]?.bool ?? false,
      phone: nonEmpty(json["phoneNumber"]?.string), displayName: nonEmpty(json["displayName"]?.string),
      disabled: json["disabled"]?.bool ?? false, createdAt: json["createdAt"].flatMap(IdentityToolkitDecoding.millis),
      lastSignInAt: json["lastLoginAt"].flatMap(IdentityToolkitDecoding.millis),
      appMetadata: claims.map { ["claims": $0] }, providers: providers, identities: identities, factors: factors,
      source: .firebase, passwordHash: passwordHash, passwordNote: note,
      phoneConfirmed: nonEmpty(json["phoneNumber"]?.string) == nil ? nil : true,
      photoURL: nonEmpty(json["photoUrl"]?.string))
  }

  static func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }

  /// `REDACTED` in base64, what production sends instead of a hash.
  static let redactedHash = "UkVEQUNURUQ="
}
