import Essentials
import JSONKit

/// The signed-in user, provider-neutral (result model `user.*`).
package struct AuthUser: Sendable, Equatable {
  package var id: String
  package var email: String
  package var emailConfirmed: Bool
  package var name: String?
  /// ISO 8601 (UTC) or nil when the backend did not say.
  package var createdAt: String?
  package var lastSignInAt: String?
  /// The sign-in provider as the backend names it (`email` on Supabase, `password` on Firebase):
  /// `user.provider_id`. `user.provider` is `signInMethod`, named the same on both.
  package var provider: String
  /// Second factors (`user.factors[]`): from `GET /user` / `accounts:lookup`, and from the
  /// sign-in answer where the backend sends them.
  package var factors: [AuthFactor]
  /// The phone number in E.164 (`+15551234567`; GoTrue's digits get their `+`), nil when none.
  package var phone: String?

  package init(
    id: String, email: String, emailConfirmed: Bool, name: String? = nil, createdAt: String? = nil,
    lastSignInAt: String? = nil, provider: String, factors: [AuthFactor] = [], phone: String? = nil
  ) {
    self.id = id
    self.email = email
    self.emailConfirmed = emailConfirmed
    self.name = name
    self.createdAt = createdAt
    self.lastSignInAt = lastSignInAt
    self.provider = provider
    self.factors = factors
    self.phone = phone
  }

  /// Who this is, for people: the e-mail address, else the phone number (an account signed in by
  /// phone has no address), else the id.
  package var label: String { !email.isEmpty ? email : phone.flatMap { $0.isEmpty ? nil : $0 } ?? id }

  /// The sign-in method named alike on both backends (`user.provider`): `password` for e-mail
  /// and password (Supabase says `email`), `google` for Google (Firebase says `google.com`), …
  package var signInMethod: String { Self.signInMethod(provider) }

  package static func signInMethod(_ provider: String) -> String {
    switch provider {
    case "email", "password": return "password"
    default: return provider.hasSuffix(".com") ? String(provider.dropLast(4)) : provider
    }
  }

  package var json: JSON {
    [
      "id": .string(id), "email": .string(email), "email_confirmed": .bool(emailConfirmed),
      "name": .optional(name), "created_at": .optional(createdAt), "last_sign_in_at": .optional(lastSignInAt),
      "provider": .string(signInMethod), "provider_id": .string(provider), "factors": .array(factors.map(\.json)),
      "phone": .optional(phone),
    ]
  }

  package init?(json: JSON) {
    guard let id = json["id"]?.string, let email = json["email"]?.string else { return nil }
    self.init(
      id: id, email: email, emailConfirmed: json["email_confirmed"]?.bool ?? false, name: json["name"]?.string,
      createdAt: json["created_at"]?.string, lastSignInAt: json["last_sign_in_at"]?.string,
      provider: json["provider_id"]?.string ?? json["provider"]?.string ?? "",
      factors: (json["factors"]?.array ?? []).compactMap(AuthFactor.init(json:)), phone: json["phone"]?.string)
  }
}

/// Tokens of a signed-in user (result model `session.*`; tokens are secret).
package struct AuthSession: Sendable, Equatable {
  package var accessToken: String
  package var refreshToken: String
  /// Unix seconds.
  package var expiresAt: Int
  package var tokenType: String
  package var user: AuthUser

  package init(accessToken: String, refreshToken: String, expiresAt: Int, tokenType: String = "bearer", user: AuthUser)
  {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.tokenType = tokenType
    self.user = user
  }

  package func expiresIn(now: Int) -> Int { UnixTime.difference(expiresAt, now) }

  /// The stored form (tokens in clear: only ever written to the 0600 session file).
  package var storedJSON: JSON {
    [
      "access_token": .string(accessToken), "refresh_token": .string(refreshToken), "expires_at": .int(expiresAt),
      "token_type": .string(tokenType), "user": user.json,
    ]
  }

  /// The key and value that mark a stored session whose tokens are kept in the keyring.
  package static let tokensInKey = "tokens_in"
  package static let tokensInKeyring = "keyring"

  /// The stored form without the tokens (what a session file keeps when the keyring holds them).
  package var storedJSONWithoutTokens: JSON {
    [
      Self.tokensInKey: .string(Self.tokensInKeyring), "expires_at": .int(expiresAt), "token_type": .string(tokenType),
      "user": user.json,
    ]
  }

  /// A session recorded without its tokens (they are empty strings here: never sent).
  package init?(storedJSONWithoutTokens json: JSON) {
    guard var complete = json.object else { return nil }
    complete["access_token"] = ""
    complete["refresh_token"] = ""
    self.init(storedJSON: .object(complete))
  }

  /// The tokens alone: the secret the keyring item holds.
  package var tokensJSON: JSON {
    ["access_token": .string(accessToken), "refresh_token": .string(refreshToken)]
  }

  /// This session with the tokens of a keyring item; nil when the item does not hold both.
  package func withTokens(_ json: JSON) -> AuthSession? {
    guard let access = json["access_token"]?.string, let refresh = json["refresh_token"]?.string, !access.isEmpty,
      !refresh.isEmpty
    else { return nil }
    var copy = self
    copy.accessToken = access
    copy.refreshToken = refresh
    return copy
  }

  package init?(storedJSON json: JSON) {
    guard let access = json["access_token"]?.string, let refresh = json["refresh_token"]?.string,
      let expiresAt = json["expires_at"]?.int, UnixTime.isPlausible(expiresAt), let userJSON = json["user"],
      let user = AuthUser(json: userJSON)
    else { return nil }
    self.init(
      accessToken: access, refreshToken: refresh, expiresAt: expiresAt,
      tokenType: json["token_type"]?.string ?? "bearer", user: user)
  }
}

/// The latest mail the emulator "sent" to an address (result model `inbox.*`).
package struct InboxMessage: Sendable, Equatable {
  package var kind: String
  package var code: String
  package var link: String
  package var email: String
  package init(kind: String, code: String, link: String, email: String) {
    self.kind = kind
    self.code = code
    self.link = link
    self.email = email
  }
}

package enum LogoutScope: String, Sendable, CaseIterable {
  case local, global, others
}

/// Result of a sign-up: signed in, or a confirmation mail was sent (no session).
package enum SignUpOutcome: Sendable, Equatable {
  case signedIn(AuthSession)
  /// `obfuscated`: Supabase answered with a fake user (the address already has a confirmed account).
  case confirmationSent(AuthUser, obfuscated: Bool)
}

extension InboxMessage {
  /// Query parameters of a mailed link that carry its secret: Supabase's `token` (or
  /// `token_hash`), Firebase's `oobCode`. Firebase's `apiKey` is a public Web API key that the
  /// link needs, so it stays.
  package static let secretParameters: Set<String> = ["token", "token_hash", "oobCode", "code"]

  /// The message as printed without `--show-tokens`: the code and the link's secret as `***`.
  package var redacted: InboxMessage {
    var copy = self
    if !code.isEmpty { copy.code = Redactor.mask }
    copy.link = Self.maskingSecrets(in: link)
    return copy
  }

  /// Values of the link's `apiKey` parameter: public, and needed for the link to work, so output
  /// of this message shows them even though the redactor knows the key.
  package var publicValues: [String] { Self.queryValues(in: link) { $0 == "apiKey" } }

  /// The code and the link's secret values: what a redactor should mask.
  package var secretValues: [String] { [code] + Self.queryValues(in: link, where: Self.secretParameters.contains) }

  static func queryValues(in link: String, where matches: (String) -> Bool) -> [String] {
    guard let question = link.firstIndex(of: "?") else { return [] }
    let query = String(link[question...].dropFirst().prefix { $0 != "#" })
    return query.split(separator: "&").compactMap { part -> String? in
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2, matches(String(pair[0])), !pair[1].isEmpty else { return nil }
      let value = String(pair[1])
      return value.percentDecoded ?? value
    }
  }

  /// `link` with the value of every secret query parameter replaced by `***`.
  package static func maskingSecrets(in link: String) -> String {
    guard let question = link.firstIndex(of: "?") else { return link }
    let fragmentStart = link[question...].firstIndex(of: "#") ?? link.endIndex
    let query = link[link.index(after: question)..<fragmentStart]
    let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { part -> String in
      guard let equals = part.firstIndex(of: "="), secretParameters.contains(String(part[..<equals])),
        part.index(after: equals) < part.endIndex
      else { return String(part) }
      return String(part[...equals]) + Redactor.mask
    }
    return String(link[...question]) + parts.joined(separator: "&") + String(link[fragmentStart..<link.endIndex])
  }
}
