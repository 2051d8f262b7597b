import Essentials
import JSONKit
import OneTimeCode

/// One account of a seed file (`authsh emulator --seed FILE`): one JSON object a line, checked
/// whole before anything is created.
package struct EmulatorSeedAccount: Sendable, Equatable {
  package enum Backend: String, Sendable, CaseIterable { case supabase, firebase }

  package struct Factor: Sendable, Equatable {
    package var name: String
    /// Base32, upper case, no padding.
    package var secret: String
    package var verified: Bool
    package var id: String?
  }

  package var backend: Backend
  /// Where it came from (`FILE:LINE` in messages).
  package var line: Int
  package var email: String?
  /// nil: the account has no password.
  package var password: String?
  package var name: String?
  /// The sign-in providers in the backend's own names (`email`, `google` / `password`, `google.com`).
  package var providers: [String]
  package var factors: [Factor] = []
  package var confirmed = true
  package var disabled = false
  package var invited = false
  package var sso = false
  package var anonymous = false
  package var emailLinkOnly = false
  package var softDeleted = false
  package var id: String?
}

/// A seed file that cannot be used: the message names `FILE:LINE`.
package struct EmulatorSeedError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}

package enum EmulatorSeed {
  static let fields: Set<String> = [
    "backend", "email", "password", "name", "providers", "factors", "confirmed", "disabled", "invited", "sso",
    "anonymous", "email_link_only", "deleted", "id",
  ]

  /// Reads and checks the whole file.
  package static func load(path: String) throws -> [EmulatorSeedAccount] {
    guard let data = FileManager.default.contents(atPath: path) else {
      let directory = isDirectory(path)
      throw EmulatorSeedError(
        "\(path): " + (directory == true ? "is a directory" : directory != nil ? "cannot be read" : "no such file"))
    }
    guard let text = String(data: data, encoding: .utf8) else { throw EmulatorSeedError("\(path): not UTF-8 text") }
    return try parse(text, file: path)
  }

  /// JSON lines; blank lines and lines starting with `#` are skipped. Every line is checked, and
  /// the same e-mail or id twice on one backend is refused.
  package static func parse(_ text: String, file: String) throws -> [EmulatorSeedAccount] {
    var accounts: [EmulatorSeedAccount] = []
    var seen: [String: Int] = [:]
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = index + 1
      let line = rawLine.trimmingSpacesAndNewlines
      if line.isEmpty || line.hasPrefix("#") { continue }
      func fail(_ message: String) -> EmulatorSeedError { EmulatorSeedError("\(file):\(number): \(message)") }
      let json: JSON
      do {
        json = try JSON.parse(line)
      } catch {
        throw fail("not a JSON object: \(error)")
      }
      guard let object = json.object else { throw fail("expected one JSON object per line, got \(json.typeName)") }
      let parsed: [EmulatorSeedAccount]
      do {
        parsed = try accountsOf(object, line: number)
      } catch let error as EmulatorSeedError {
        throw fail(error.message)
      }
      for account in parsed {
        for key in [account.email.map { "email " + $0 }, account.id.map { "id " + $0 }].compactMap({ $0 }) {
          let scoped = account.backend.rawValue + " " + key
          if let first = seen[scoped] {
            throw fail("the \(account.backend.rawValue) account with \(key) is already on line \(first)")
          }
          seen[scoped] = number
        }
      }
      accounts += parsed
    }
    return accounts
  }

  // MARK: - One line

  private static func accountsOf(_ object: JSONObject, line: Int) throws -> [EmulatorSeedAccount] {
    for key in object.keys where !fields.contains(key) {
      throw EmulatorSeedError("unknown field \"\(key)\" (known: \(fields.sorted().joined(separator: ", ")))")
    }
    let backends: [EmulatorSeedAccount.Backend]
    switch try string(object, "backend") {
    case "supabase": backends = [.supabase]
    case "firebase": backends = [.firebase]
    case "both": backends = [.supabase, .firebase]
    case nil: throw EmulatorSeedError("\"backend\" is missing (supabase, firebase or both)")
    case let other?: throw EmulatorSeedError("\"backend\" must be supabase, firebase or both, not \"\(other)\"")
    }
    return try backends.map { try account(object, backend: $0, line: line) }
  }

  private static func account(_ object: JSONObject, backend: EmulatorSeedAccount.Backend, line: Int) throws
    -> EmulatorSeedAccount
  {
    let anonymous = try bool(object, "anonymous") ?? false
    let sso = try bool(object, "sso") ?? false
    let invited = try bool(object, "invited") ?? false
    let emailLinkOnly = try bool(object, "email_link_only") ?? false
    let given = try stringList(object, "providers")
    var account = EmulatorSeedAccount(backend: backend, line: line, providers: [])
    account.anonymous = anonymous
    account.sso = sso
    account.invited = invited
    account.emailLinkOnly = emailLinkOnly
    account.name = try string(object, "name")
    account.disabled = try bool(object, "disabled") ?? false
    account.id = try string(object, "id")
    switch try string(object, "deleted") {
    case nil: break
    case "soft": account.softDeleted = true
    case let other?: throw EmulatorSeedError("\"deleted\" can only be \"soft\", not \"\(other)\"")
    }
    if let value = object["password"], !value.isNull {
      guard let password = value.string else { throw EmulatorSeedError("\"password\" must be a string or null") }
      guard password.utf16.count >= 6, password.utf8.count <= 72 else {
        throw EmulatorSeedError("\"password\" must be 6 to 72 characters (both backends refuse shorter ones)")
      }
      account.password = password
    }
    if let email = try string(object, "email") {
      guard GoTrueRules.isValidEmailFormat(email) else {
        throw EmulatorSeedError("\"email\" is not an e-mail address: \(email)")
      }
      account.email = email.lowercased()
    }

    // Backend-only kinds of account.
    let supabaseOnly = [("invited", invited), ("sso", sso), ("deleted", account.softDeleted)]
    for (field, set) in supabaseOnly where set && backend == .firebase {
      throw EmulatorSeedError(
        "\"\(field)\" is a Supabase kind of account; Firebase has none (use \"backend\": \"supabase\")")
    }
    if emailLinkOnly && backend == .supabase {
      throw EmulatorSeedError(
        "\"email_link_only\" is a Firebase kind of account (Supabase magic links work for every account)")
    }
    let kinds = [("anonymous", anonymous), ("sso", sso), ("invited", invited), ("email_link_only", emailLinkOnly)]
      .filter(\.1)
    if kinds.count > 1 {
      throw EmulatorSeedError("\(kinds.map { "\"\($0.0)\"" }.joined(separator: " and ")) do not go together")
    }
    if let kind = kinds.first?.0, account.password != nil {
      throw EmulatorSeedError(
        "a\(kind == "invited" ? "n" : "") \(kind) account has no password: give \"password\": null")
    }
    if anonymous {
      if account.email != nil { throw EmulatorSeedError("an anonymous account has no e-mail") }
      if given != nil { throw EmulatorSeedError("an anonymous account has no providers") }
    } else if account.email == nil {
      throw EmulatorSeedError("\"email\" is missing (only anonymous accounts have none)")
    }
    if sso && given != nil {
      throw EmulatorSeedError("an SSO account's provider is its identity provider: leave out \"providers\"")
    }
    if invited, try bool(object, "confirmed") == true {
      throw EmulatorSeedError("an invited account is not confirmed until it accepts: leave out \"confirmed\"")
    }
    account.confirmed = invited ? false : try bool(object, "confirmed") ?? true
    account.providers = try providers(given, account: account, backend: backend)
    account.factors = try factors(object["factors"], backend: backend, account: account)
    if let id = account.id {
      switch backend {
      case .supabase:
        guard GoTrueRules.isUUID(id.lowercased()) else { throw EmulatorSeedError("\"id\" must be a UUID on Supabase") }
        account.id = id.lowercased()
      case .firebase:
        guard (1...128).contains(id.count), !id.contains("/") else {
          throw EmulatorSeedError("\"id\" must be 1 to 128 characters, no /")
        }
      }
    }
    return account
  }

  /// Provider names in the backend's spelling (`google` ↔ `google.com`, `email` ↔ `password`),
  /// with the defaults: e-mail/password when the account has one.
  private static func providers(_ given: [String]?, account: EmulatorSeedAccount, backend: EmulatorSeedAccount.Backend)
    throws -> [String]
  {
    if account.anonymous || account.sso { return [] }
    let hasPassword = account.password != nil
    guard let given else {
      switch backend {
      case .supabase: return ["email"]
      case .firebase: return hasPassword || account.emailLinkOnly ? ["password"] : []
      }
    }
    var names: [String] = []
    for raw in given {
      let name = raw.lowercased()
      let mapped: String
      switch backend {
      case .supabase:
        mapped = name == "password" ? "email" : name.hasSuffix(".com") ? String(name.dropLast(4)) : name
        guard supabaseProviders.contains(mapped) else {
          throw EmulatorSeedError(
            "unknown Supabase provider \"\(raw)\" (known: \(supabaseProviders.sorted().joined(separator: ", ")))")
        }
      case .firebase:
        mapped = name == "email" ? "password" : firebaseProviders.contains(name + ".com") ? name + ".com" : name
        guard firebaseProviders.contains(mapped) || mapped.hasPrefix("oidc.") || mapped.hasPrefix("saml.") else {
          throw EmulatorSeedError(
            "unknown Firebase provider \"\(raw)\" (known: \(firebaseProviders.sorted().joined(separator: ", ")), oidc.*, saml.*)"
          )
        }
      }
      if !names.contains(mapped) { names.append(mapped) }
    }
    let passwordProvider = backend == .supabase ? "email" : "password"
    if hasPassword && !names.contains(passwordProvider) {
      throw EmulatorSeedError(
        "a password needs the \"\(passwordProvider)\" provider in \"providers\" (or \"password\": null)")
    }
    if backend == .firebase, names.contains("password"), !hasPassword, !account.emailLinkOnly {
      throw EmulatorSeedError("the \"password\" provider needs a password, or \"email_link_only\": true")
    }
    if names.isEmpty { throw EmulatorSeedError("\"providers\" is empty: give at least one way to sign in") }
    return names
  }

  static let supabaseProviders: Set<String> = [
    "email", "apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab", "google",
    "kakao",
    "keycloak", "linkedin_oidc", "notion", "slack_oidc", "snapchat", "spotify", "twitch", "twitter", "workos", "zoom",
  ]
  static let firebaseProviders: Set<String> = [
    "password", "google.com", "apple.com", "github.com", "facebook.com", "twitter.com", "microsoft.com", "yahoo.com",
  ]

  private static func factors(_ value: JSON?, backend: EmulatorSeedAccount.Backend, account: EmulatorSeedAccount) throws
    -> [EmulatorSeedAccount.Factor]
  {
    guard let value, !value.isNull else { return [] }
    guard let items = value.array else {
      throw EmulatorSeedError("\"factors\" must be a list of {\"name\", \"secret\", \"verified\"}")
    }
    if !items.isEmpty && account.anonymous {
      throw EmulatorSeedError("an anonymous account cannot have second factors")
    }
    if !items.isEmpty && backend == .firebase && !account.confirmed {
      throw EmulatorSeedError("Firebase needs a verified e-mail before a second factor (\"confirmed\": true)")
    }
    var factors: [EmulatorSeedAccount.Factor] = []
    for (index, item) in items.enumerated() {
      let label = "factors[\(index)]"
      guard let object = item.object else { throw EmulatorSeedError("\(label) must be an object") }
      for key in object.keys where !["name", "secret", "verified", "id"].contains(key) {
        throw EmulatorSeedError("\(label): unknown field \"\(key)\" (known: id, name, secret, verified)")
      }
      guard let rawSecret = try string(object, "secret") else {
        throw EmulatorSeedError("\(label): \"secret\" is missing (the base32 TOTP secret, e.g. JBSWY3DPEHPK3PXP)")
      }
      guard let secret = TOTP.normalisedSecret(rawSecret) else {
        throw EmulatorSeedError("\(label): \"secret\" is not base32")
      }
      let name = try string(object, "name") ?? ""
      let verified = try bool(object, "verified") ?? true
      if backend == .firebase && !verified {
        throw EmulatorSeedError("\(label): Firebase keeps only finished enrolments (\"verified\": true)")
      }
      if factors.contains(where: { $0.name == name }) {
        throw EmulatorSeedError("\(label): two factors named \"\(name)\" (GoTrue refuses the same friendly name twice)")
      }
      var id = try string(object, "id")
      if backend == .supabase, let given = id {
        guard GoTrueRules.isUUID(given.lowercased()) else {
          throw EmulatorSeedError("\(label): \"id\" must be a UUID on Supabase")
        }
        id = given.lowercased()
      }
      factors.append(.init(name: name, secret: secret, verified: verified, id: id))
    }
    return factors
  }
}
