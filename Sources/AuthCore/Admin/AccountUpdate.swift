import JSONKit

/// What `user update` changes: the display name, the user's own metadata, the metadata only
/// admins write (roles) and custom claims. Keys are merged into what the account has; a key
/// set to `null` is removed.
package struct AccountUpdate: Sendable, Equatable {
  /// Supabase `user_metadata.full_name`; Firebase `displayName`.
  package var name: String?
  /// Supabase `user_metadata` (the user can change these themselves).
  package var metadata: JSONObject
  /// Supabase `app_metadata` (only admins write it; it is in every access token).
  package var appMetadata: JSONObject
  /// Firebase custom claims (`customAttributes`); on Supabase, keys of `app_metadata`.
  package var claims: JSONObject
  /// A new phone number (E.164, `+` and digits); "" removes it (Firebase only).
  package var phone: String?

  package init(
    name: String? = nil, metadata: JSONObject = JSONObject(), appMetadata: JSONObject = JSONObject(),
    claims: JSONObject = JSONObject()
  ) {
    self.name = name
    self.metadata = metadata
    self.appMetadata = appMetadata
    self.claims = claims
  }

  package var isEmpty: Bool {
    name == nil && metadata.isEmpty && appMetadata.isEmpty && claims.isEmpty && phone == nil
  }

  /// E.164 as typed by a person: `+` and 7 to 15 digits, the first not 0 (spaces, dashes and
  /// brackets are dropped).
  package static func e164(_ text: String) -> String? {
    let digits = text.filter { !" -().".contains($0) }
    guard digits.hasPrefix("+"), digits.dropFirst().first != "0" else { return nil }
    return PortableAccount.e164(digits)
  }

  /// `KEY=VALUE`: the value is JSON when it reads as JSON (`true`, `3`, `null`, `["a"]`, `"x"`),
  /// text otherwise (`role=admin`). nil when there is no `=` or no key.
  package static func pair(_ text: String) -> (String, JSON)? {
    guard let equals = text.firstIndex(of: "=") else { return nil }
    let key = String(text[..<equals]).trimmingWhitespace
    guard !key.isEmpty else { return nil }
    let raw = String(text[text.index(after: equals)...])
    let value = (try? JSON.parse(raw)) ?? .string(raw)
    return (key, value)
  }

  /// Whether `user` already holds everything asked (a bulk `user update` then sends nothing:
  /// `unchanged`). Keys are compared where each backend keeps them: the name in Supabase's
  /// `user_metadata.full_name` (Firebase: the display name, "" for none), `--meta` in the metadata,
  /// `--app-meta` and `--claims` in the claims (Supabase's `app_metadata`); a key asked `null` must be
  /// absent. Anything not known to be there counts as a change.
  package func isApplied(to user: AdminUser) -> Bool {
    func holds(_ object: JSONObject?, _ changes: JSONObject) -> Bool {
      changes.pairs.allSatisfy { key, value in
        let current = object?[key]
        return value.isNull ? (current == nil || current?.isNull == true) : current == value
      }
    }
    if let name {
      if let metadata = user.metadata?.object {
        guard metadata["full_name"] == .string(name) else { return false }
      } else if (user.name ?? "") != name {
        return false
      }
    }
    guard holds(user.metadata?.object, metadata) else { return false }
    var claims = user.claims?.object ?? JSONObject()
    for (key, value) in (user.appMetadata?.object ?? JSONObject()).pairs { claims[key] = value }
    guard holds(claims, appMetadata), holds(claims, self.claims) else { return false }
    if let phone, (user.phone ?? "") != phone { return false }
    return true
  }

  /// `base` with `changes` merged in: a key set to `null` is removed.
  package static func merged(_ base: JSONObject, _ changes: JSONObject) -> JSONObject {
    var result = base
    for (key, value) in changes.pairs { result[key] = value.isNull ? nil : value }
    return result
  }
}
