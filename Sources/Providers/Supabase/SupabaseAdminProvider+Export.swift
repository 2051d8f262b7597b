import AuthCore
import Essentials
import JSONKit

/// `user export` on Supabase through the admin API (`GET /admin/users` pages). GoTrue's API never
/// returns password hashes: the records say so (`password_note`), and `--db URL` reads them from
/// the database instead.
extension SupabaseAdminProvider: AccountExporting {
  package func accountReader(hashConfig: FirebaseHashConfig?) async throws -> any AccountReader {
    SupabaseAccountReader(provider: self)
  }
}

struct SupabaseAccountReader: AccountReader {
  static let note = "Supabase's admin API does not return password hashes; pass --db URL"
  let provider: SupabaseAdminProvider
  /// The admin API gives no hashes: nothing secret goes out.
  var privacyNotice: String? { nil }

  var notices: [String] {
    [
      "Supabase's admin API does not return password hashes, and its list has no identities or second factors: "
        + "the records have password_hash, identities and factors null. "
        + "Pass --db postgres://… (the project's database) to export them."
    ]
  }

  func page(after token: String?, size: Int) async throws -> AccountPage {
    let page = token.flatMap(Int.init) ?? 1
    let perPage = min(max(size, 1), 1000)
    let (json, response) = try await provider.call(
      "GET", "/admin/users", query: [("page", String(page)), ("per_page", String(perPage))])
    guard let users = json["users"]?.array else { throw WireBody.missing("users", in: response) }
    for user in users where user["id"]?.string?.isEmpty != false { throw WireBody.missing("users[].id", in: response) }
    let now = Date()
    let accounts = users.filter { $0["deleted_at"]?.string == nil }.map { SupabaseExportDecoding.account($0, now: now) }
    let more =
      !users.isEmpty && SupabaseAdminDecoding.hasNextPage(response, page: page, perPage: perPage, count: users.count)
    return AccountPage(accounts: accounts, next: more ? String(page + 1) : nil)
  }

  func close() async {}
}

/// GoTrue's `User` JSON → a portable record (no hash: the API has none to give).
enum SupabaseExportDecoding {
  static func account(_ json: JSON, now: Date) -> PortableAccount {
    let metadata = json["user_metadata"].flatMap { $0.object?.isEmpty == false ? $0 : nil }
    // The admin list loads neither (`identities: null`): the record says unknown (null), not none.
    let identities = json["identities"]?.array?.compactMap { identity -> PortableIdentity? in
      guard let provider = identity["provider"]?.string, !provider.isEmpty else { return nil }
      let email = identity["email"]?.string ?? identity["identity_data"]?["email"]?.string
      return PortableIdentity(provider: provider, id: identity["id"]?.string, email: email)
    }
    var providers = json["app_metadata"]?["providers"]?.array?.compactMap(\.string) ?? []
    if providers.isEmpty { providers = identities?.map(\.provider) ?? [] }
    let banned = json["banned_until"]?.string.flatMap { raw in Timestamps.parse(raw).map { (raw, $0) } }
    let activeBan = banned.flatMap { $0.1 > now ? Timestamps.normalize($0.0) : nil }
    let factors = json["factors"]?.array?.compactMap { factor -> PortableFactor? in
      guard let id = factor["id"]?.string, !id.isEmpty, factor["status"]?.string != "unverified" else { return nil }
      return PortableFactor(
        id: id, type: factor["factor_type"]?.string ?? "totp",
        friendlyName: factor["friendly_name"]?.string.flatMap { $0.isEmpty ? nil : $0 })
    }
    func time(_ key: String) -> String? { json[key]?.string.flatMap { $0.isEmpty ? nil : Timestamps.normalize($0) } }
    // An invitation not yet accepted has no password: the person sets one when they accept it.
    let invitedOnly = !(json["invited_at"]?.string ?? "").isEmpty && time("email_confirmed_at") == nil
    let hasPassword = (providers.contains("email") || providers.contains("phone")) && !invitedOnly
    return PortableAccount(
      id: json["id"]?.string ?? "", email: json["email"]?.string.flatMap { $0.isEmpty ? nil : $0 },
      emailVerified: time("email_confirmed_at") != nil, phone: json["phone"]?.string.flatMap { $0.isEmpty ? nil : $0 },
      displayName: metadata?["full_name"]?.string ?? metadata?["name"]?.string, disabled: activeBan != nil,
      bannedUntil: activeBan,
      createdAt: time("created_at"), lastSignInAt: time("last_sign_in_at"), userMetadata: metadata,
      appMetadata: SupabaseAdminDecoding.adminMetadata(json["app_metadata"]), providers: providers,
      identities: identities,
      factors: factors, source: .supabase, passwordNote: hasPassword ? SupabaseAccountReader.note : nil,
      phoneConfirmed: json["phone"]?.string.map { $0.isEmpty } == false ? time("phone_confirmed_at") != nil : nil,
      photoURL: metadata?["avatar_url"]?.string, invitedAt: invitedOnly ? time("invited_at") : nil)
  }
}
