import AuthCore
import Essentials
import JSONKit

/// GoTrue's admin answers (the `User` model's JSON) → `AdminUser`.
enum SupabaseAdminDecoding {
  /// A ban ending further away than this is shown as a ban with no end (`disable` without
  /// `--until` sends 100 years).
  static let indefiniteBanSeconds: TimeInterval = 50 * 365 * 86400

  static func user(_ json: JSON, response: HTTPResponse, now: Date) throws -> AdminUser {
    guard json.object != nil, let id = json["id"]?.string, !id.isEmpty else {
      throw WireBody.missing("user.id", in: response)
    }
    let metadata = json["user_metadata"]
    let name = metadata?["full_name"]?.string ?? metadata?["name"]?.string
    // `email_confirmed_at`; `confirmed_at` is the earlier of the e-mail and phone confirmations.
    let confirmedAt = time(json["email_confirmed_at"])
    var disabled = false
    var disabledUntil: String?
    if let raw = json["banned_until"]?.string, let until = Timestamps.parse(raw), until > now {
      disabled = true
      if until.timeIntervalSince(now) < indefiniteBanSeconds { disabledUntil = Timestamps.normalize(raw) }
    }
    var user = AdminUser(
      id: id, email: json["email"]?.string ?? "", confirmed: confirmedAt != nil, confirmedAt: confirmedAt,
      createdAt: time(json["created_at"]), lastSignInAt: time(json["last_sign_in_at"]), disabled: disabled,
      disabledUntil: disabledUntil, methods: [], name: name,
      metadata: metadata?.object == nil ? nil : metadata, recoverySentAt: time(json["recovery_sent_at"]),
      confirmationSentAt: time(json["confirmation_sent_at"]), deletedAt: time(json["deleted_at"]))
    user.pendingEmail = json["new_email"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    user.emailChangeSentAt = time(json["email_change_sent_at"])
    user.appMetadata = adminMetadata(json["app_metadata"])
    user.claims = user.appMetadata
    user.phone = json["phone"]?.string.flatMap { $0.isEmpty ? nil : $0.hasPrefix("+") ? $0 : "+" + $0 }
    user.invitedAt = time(json["invited_at"])
    user.anonymous = json["is_anonymous"]?.bool ?? false
    user.identities = identities(json)
    user.factors = (json["factors"]?.array ?? []).compactMap(factor)
    let providers = methods(json)
    // GoTrue keeps `is_sso_user` out of its JSON; an SSO account's identity is `sso:<provider id>`.
    user.sso = json["is_sso_user"]?.bool == true || providers.contains { $0.hasPrefix("sso:") }
    user.methods = waysIn(providers, user: user)
    return user.deletedAt == nil ? user : scrubbed(user)
  }

  /// A soft-deleted account as it is: GoTrue replaced its e-mail, phone and pending e-mail with
  /// hashes and removed its password and metadata, so none of them is shown as data, and it has
  /// no way in.
  static func scrubbed(_ deleted: AdminUser) -> AdminUser {
    var user = deleted
    user.email = ""
    user.phone = nil
    user.pendingEmail = nil
    user.emailChangeSentAt = nil
    user.methods = []
    user.identities = []
    user.name = nil
    user.metadata = nil
    return user
  }

  /// `app_metadata` without GoTrue's own `provider` / `providers`; nil when nothing else is there.
  static func adminMetadata(_ value: JSON?) -> JSON? {
    guard var object = value?.object else { return nil }
    object["provider"] = nil
    object["providers"] = nil
    return object.isEmpty ? nil : .object(object)
  }

  /// What `methods` says: `password` only for an e-mail identity that is not waiting for an
  /// invite to be accepted (GoTrue never says whether a password is set: an account made by a
  /// magic link has the identity and no password of its own); an invite pending is `email_link`;
  /// an anonymous account `anonymous`.
  static func waysIn(_ providers: [String], user: AdminUser) -> [String] {
    if user.anonymous { return ["anonymous"] }
    return providers.map { $0 == "password" && user.invitePending ? "email_link" : $0 }
  }

  static func identities(_ json: JSON) -> [AdminIdentity] {
    (json["identities"]?.array ?? []).compactMap { identity in
      guard let provider = identity["provider"]?.string, !provider.isEmpty else { return nil }
      let email = identity["email"]?.string ?? identity["identity_data"]?["email"]?.string
      return AdminIdentity(
        provider: provider == "email" ? "password" : provider, subject: identity["id"]?.string,
        email: email.flatMap { $0.isEmpty ? nil : $0 }, createdAt: time(identity["created_at"]),
        lastSignInAt: time(identity["last_sign_in_at"]))
    }
  }

  /// A factor of the user (`factors[]`, `/admin/users/{id}/factors`).
  static func factor(_ json: JSON) -> AuthFactor? {
    guard let id = json["id"]?.string, !id.isEmpty else { return nil }
    let kind: AuthFactor.Kind
    switch json["factor_type"]?.string {
    case "totp": kind = .totp
    case "phone": kind = .phone
    default: kind = .other
    }
    let name = json["friendly_name"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    return AuthFactor(
      id: id, kind: kind, name: name, status: json["status"]?.string == "verified" ? .verified : .unverified,
      createdAt: time(json["created_at"]))
  }

  static func time(_ value: JSON?) -> String? {
    guard let text = value?.string, !text.isEmpty else { return nil }
    return Timestamps.normalize(text)
  }

  /// Sign-in methods from the identities (absent or `null` in list answers) and
  /// `app_metadata.providers`, with neutral names: GoTrue's `email` identity is `password`.
  /// An approximation: GoTrue never says whether a password is set (an account made by an invite
  /// or a magic link has the `email` identity and no password of its own until one is set), so
  /// `password` means "can sign in with e-mail and password once it has one".
  static func methods(_ json: JSON) -> [String] {
    var names: [String] = []
    for identity in json["identities"]?.array ?? [] {
      if let provider = identity["provider"]?.string { names.append(provider) }
    }
    for provider in json["app_metadata"]?["providers"]?.array ?? [] {
      if let name = provider.string { names.append(name) }
    }
    if names.isEmpty, let provider = json["app_metadata"]?["provider"]?.string { names.append(provider) }
    var seen = Set<String>()
    return names.map { $0 == "email" ? "password" : $0 }.filter { seen.insert($0).inserted }
  }

  /// Whether there is a page after `page`: the `Link` header's `rel="next"` when the server sent
  /// one, else `X-Total-Count`, else a full page.
  static func hasNextPage(_ response: HTTPResponse, page: Int, perPage: Int, count: Int) -> Bool {
    if let link = response.header("Link"), !link.isEmpty {
      return link.split(separator: ",").contains { $0.replacingAll(" ", with: "").contains("rel=\"next\"") }
    }
    if let total = response.header("X-Total-Count").flatMap({ Int($0.trimmingWhitespace) }) {
      let (seen, overflow) = page.multipliedReportingOverflow(by: perPage)
      return !overflow && seen < total
    }
    return count >= perPage
  }
}
