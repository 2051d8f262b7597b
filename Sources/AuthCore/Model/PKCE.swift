import Crypto
import Essentials
import JSONKit

/// A PKCE pair (RFC 7636) for a Supabase project that signs in with `flow = "pkce"`: the
/// challenge goes with the request for a mail, the verifier stays with authsh until the link
/// comes back with `?code=` and is traded for the session.
package struct PKCEPair: Sendable, Equatable {
  package var verifier: String
  /// `code_challenge_method`: authsh always sends `s256`.
  package static let method = "s256"

  package init(verifier: String) { self.verifier = verifier }

  /// base64url(SHA-256(verifier)) without padding.
  package var challenge: String { Self.base64URL(Array(SHA256.hash(data: Array(verifier.utf8)))) }

  /// 32 random bytes as base64url: a 43-character verifier of `[A-Za-z0-9_-]`.
  package static func generate<G: RandomNumberGenerator>(using generator: inout G) -> PKCEPair {
    PKCEPair(verifier: base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
  }

  package static func generate() -> PKCEPair {
    var generator = SystemRandomNumberGenerator()
    return generate(using: &generator)
  }

  static func base64URL(_ bytes: [UInt8]) -> String {
    Base64.encodeURL(bytes)
  }

  /// The auth code of a link a PKCE flow ended in: the app's redirect, `https://app/cb?code=…`.
  /// nil for anything else (a mailed `/verify` link, a 6-digit code, a token hash).
  package static func authCode(inLink text: String) -> String? {
    guard let components = URLComponents(string: text), components.scheme != nil,
      let items = components.queryItems,
      !items.contains(where: { ["token", "token_hash", "oobCode"].contains($0.name) }),
      let code = items.first(where: { $0.name == "code" })?.value, !code.isEmpty
    else { return nil }
    return code
  }
}

/// A PKCE flow authsh started and has not finished: the verifier (never shown) and when it began.
package struct PendingPKCEFlow: Sendable, Equatable {
  package enum Kind: String, Sendable { case recovery, magiclink }

  package var verifier: String
  package var startedAt: Int

  package init(verifier: String, startedAt: Int) {
    self.verifier = verifier
    self.startedAt = startedAt
  }

  /// The key in `ProfileState.pkceFlows`: `recovery:ada@example.com`.
  package static func key(_ kind: Kind, email: String) -> String { kind.rawValue + ":" + email.lowercased() }

  /// A day: GoTrue forgets flow states after five minutes of their start (a magic link: of its
  /// use), so anything older can only fail; it is dropped when the next flow is kept.
  package static let keptSeconds = 86_400

  var json: JSON { ["verifier": .string(verifier), "started_at": .int(startedAt)] }

  init?(json: JSON) {
    guard let verifier = json["verifier"]?.string, !verifier.isEmpty, let startedAt = json["started_at"]?.int else {
      return nil
    }
    self.init(verifier: verifier, startedAt: startedAt)
  }
}

extension ProfileState {
  /// Keeps the verifier of a flow just started, replacing an earlier one of the same kind and
  /// address, and drops flows older than a day.
  package mutating func keepPKCEFlow(_ kind: PendingPKCEFlow.Kind, email: String, verifier: String, now: Int) {
    pkceFlows = pkceFlows.filter { _, flow in
      flow.startedAt <= now && flow.startedAt > now - PendingPKCEFlow.keptSeconds
    }
    pkceFlows[PendingPKCEFlow.key(kind, email: email)] = PendingPKCEFlow(verifier: verifier, startedAt: now)
  }

  /// The newest pending flow of `kind` (for `email` when given), with its key.
  package func newestPKCEFlow(_ kind: PendingPKCEFlow.Kind, email: String?) -> (key: String, flow: PendingPKCEFlow)? {
    let prefix = kind.rawValue + ":"
    return pkceFlows.filter { key, _ in
      key.hasPrefix(prefix) && email.map { key == PendingPKCEFlow.key(kind, email: $0) } ?? true
    }.max { $0.value.startedAt < $1.value.startedAt }.map { ($0.key, $0.value) }
  }

  static func pkceFlows(from json: JSON?) -> [String: PendingPKCEFlow] {
    var flows: [String: PendingPKCEFlow] = [:]
    for pair in json?.object?.pairs ?? [] {
      if let flow = PendingPKCEFlow(json: pair.value) { flows[pair.key] = flow }
    }
    return flows
  }

  var pkceFlowsJSON: JSON {
    .object(JSONObject(pkceFlows.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }))
  }
}

extension AuthProvider {
  package func sendPasswordReset(email: String, pkce: PKCEPair?) async throws {
    guard pkce == nil else { throw Self.noPKCE }
    try await sendPasswordReset(email: email)
  }

  package func sendSignInLink(email: String, pkce: PKCEPair?) async throws {
    guard pkce == nil else { throw Self.noPKCE }
    try await sendSignInLink(email: email)
  }

  package func signInWithLink(email: String, authCode: String, verifier: String) async throws -> SignInStep {
    throw Self.noPKCE
  }

  package func confirmPasswordReset(authCode: String, verifier: String, newPassword: String) async throws
    -> AuthSession
  {
    throw Self.noPKCE
  }

  static var noPKCE: AuthError {
    AuthError(.notSupported, message: "PKCE (flow = \"pkce\") is a Supabase sign-in flow; this backend has none.")
  }
}
