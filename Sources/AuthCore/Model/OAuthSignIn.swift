import Essentials

/// A browser sign-in under way (`login --oauth`): the address the browser is sent to, and what
/// the backend needs again to finish it (the PKCE verifier, Firebase's `sessionId`).
package struct OAuthStart: Sendable, Equatable {
  /// The provider as the backend names it (`google`, `google.com`).
  package var provider: String
  package var url: String
  package var callback: String
  package var verifier: String?
  package var sessionId: String?

  package init(provider: String, url: String, callback: String, verifier: String? = nil, sessionId: String? = nil) {
    self.provider = provider
    self.url = url
    self.callback = callback
    self.verifier = verifier
    self.sessionId = sessionId
  }

  /// The names `--oauth` takes, as a person says them (`google`), for each backend.
  package static let providers = [
    "apple", "azure", "bitbucket", "discord", "facebook", "figma", "github", "gitlab", "google", "kakao", "keycloak",
    "linkedin", "microsoft", "notion", "slack", "spotify", "twitch", "twitter", "workos", "yahoo", "zoom",
  ]

  /// `google` as Supabase names it (`google`) or Firebase (`google.com`); nil when that backend
  /// has no such provider.
  package static func backendName(_ name: String, for kind: ProviderKind) -> String? {
    let bare = name.lowercased().hasSuffix(".com") ? String(name.lowercased().dropLast(4)) : name.lowercased()
    switch kind {
    case .supabase:
      let mapped = ["microsoft": "azure", "linkedin": "linkedin_oidc"][bare] ?? bare
      return providers.contains(bare) && !["yahoo"].contains(bare) ? mapped : nil
    case .firebase:
      let firebase = ["google", "facebook", "github", "twitter", "apple", "microsoft", "yahoo", "linkedin"]
      return firebase.contains(bare) ? bare + ".com" : nil
    }
  }

  /// The value of `name` in the query or the fragment of `url` (the fragment wins, as a browser
  /// app reads it).
  package static func parameter(_ name: String, in url: String) -> String? {
    let noFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let fragment = noFragment.count > 1 ? String(noFragment[1]) : ""
    let query = noFragment[0].split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
    for part in [fragment, query] {
      for pair in part.split(separator: "&") {
        let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        if halves[0] == name[...] {
          let raw = halves.count > 1 ? String(halves[1]) : ""
          return raw.replacingAll("+", with: " ").percentDecoded ?? raw
        }
      }
    }
    return nil
  }
}

extension AuthProvider {
  package func beginOAuth(provider: String, callback: String, pkce: PKCEPair) async throws -> OAuthStart {
    throw AuthError(.notSupported, message: "This backend has no browser sign-in in authsh.")
  }

  package func finishOAuth(_ start: OAuthStart, returnedTo url: String) async throws -> AuthSession {
    throw AuthError(.notSupported, message: "This backend has no browser sign-in in authsh.")
  }
}
