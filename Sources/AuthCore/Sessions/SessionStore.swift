import Essentials
import JSONKit

/// What authsh keeps per backend (see `BackendKey`): the session, the remembered e-mail, reset
/// cooldowns.
package struct ProfileState: Sendable, Equatable {
  /// The canonical `BackendKey` the state was saved for; a file store returns `""` for a file that
  /// does not record one (never trusted).
  package var backend: String?
  package var session: AuthSession?
  /// `login --remember`: the default e-mail for the next `login`.
  package var rememberedEmail: String?
  /// Lower-cased e-mail → Unix time of the last reset request (the 60 s cooldown).
  package var resetSentAt: [String: Int]
  /// `login --phone N --send-only`: the number (E.164) → Firebase's `sessionInfo` ("" on Supabase,
  /// which needs none), for the `login --phone N --code C` that finishes it.
  package var phoneVerifications: [String: String] = [:]
  /// `reset` and `login --link` with `flow = "pkce"`: `recovery:EMAIL` / `magiclink:EMAIL` → the
  /// verifier that trades the code of the link for the session (`PKCE.swift`). Kept with the
  /// rest of this state in the 0600 file; never shown.
  package var pkceFlows: [String: PendingPKCEFlow] = [:]
  /// Set when the stored session is there but cannot be used (an expiry out of range, a missing
  /// token, tokens kept in a keyring this run does not use): session commands fail with this
  /// error instead of using it; `logout` removes it.
  package var sessionProblem: AuthError?
  /// The session as a file records it when its tokens are kept in the keyring: user and expiry,
  /// empty tokens. Never sent anywhere; `KeyringSessionStore` fills in the tokens, and `status`
  /// shows it without unlocking the keyring.
  package var keyringSession: AuthSession?
  /// `"file"` when the session was saved with the file store chosen explicitly
  /// (`credential_store = "file"`): no later command moves it into the keyring; only `authsh
  /// secret migrate --to keyring` does.
  package var pinnedStore: String?

  package init(
    session: AuthSession? = nil, rememberedEmail: String? = nil, resetSentAt: [String: Int] = [:],
    backend: String? = nil
  ) {
    self.backend = backend
    self.session = session
    self.rememberedEmail = rememberedEmail
    self.resetSentAt = resetSentAt
  }

  package var json: JSON { json(tokensInKeyring: false) }

  /// The stored form. `tokensInKeyring`: the session without its tokens (what is not secret:
  /// user and expiry), marked `"tokens_in": "keyring"`.
  package func json(tokensInKeyring: Bool) -> JSON {
    var object = JSONObject()
    object["version"] = 2
    object["backend"] = .optional(backend)
    if tokensInKeyring, let session {
      object["session"] = session.storedJSONWithoutTokens
    } else {
      // A session whose tokens are in the keyring stays recorded when this run does not use the
      // keyring (credential_store = "file" saving a reset hold): only logout or a login replaces it.
      object["session"] = session?.storedJSON ?? keyringSession?.storedJSONWithoutTokens ?? .null
    }
    object["remembered_email"] = .optional(rememberedEmail)
    if let pinnedStore, !tokensInKeyring { object["store"] = .string(pinnedStore) }
    object["reset_sent_at"] = .object(
      JSONObject(resetSentAt.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) }))
    if !phoneVerifications.isEmpty {
      object["phone_verifications"] = .object(
        JSONObject(phoneVerifications.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }))
    }
    if !pkceFlows.isEmpty { object["pkce_flows"] = pkceFlowsJSON }
    return .object(object)
  }

  package init(json: JSON) {
    backend = json["backend"]?.string
    pinnedStore = json["store"]?.string
    if let stored = json["session"], stored[AuthSession.tokensInKey]?.string == AuthSession.tokensInKeyring {
      keyringSession = AuthSession(storedJSONWithoutTokens: stored)
      sessionProblem = AuthError(
        .configError, message: "The saved session keeps its tokens in the keyring, which is not used here.",
        hint: "Use the keyring (credential_store = \"auto\"), or log in again to keep a new session here.")
      if keyringSession == nil {
        sessionProblem = AuthError(
          .configError, message: "The saved session cannot be used (a field is missing or out of range).",
          hint: "Run: authsh logout (it removes the saved session), then log in again.")
      }
    } else {
      session = json["session"].flatMap(AuthSession.init(storedJSON:))
    }
    if session == nil, keyringSession == nil, sessionProblem == nil, let stored = json["session"], !stored.isNull {
      sessionProblem = AuthError(
        .configError, message: "The saved session cannot be used (a field is missing or out of range).",
        hint: "Run: authsh logout (it removes the saved session), then log in again.")
    }
    rememberedEmail = json["remembered_email"]?.string
    var sent: [String: Int] = [:]
    for pair in json["reset_sent_at"]?.object?.pairs ?? [] {
      if let time = pair.value.int, UnixTime.isPlausible(time) { sent[pair.key] = time }
    }
    resetSentAt = sent
    for pair in json["phone_verifications"]?.object?.pairs ?? [] {
      if let sessionInfo = pair.value.string { phoneVerifications[pair.key] = sessionInfo }
    }
    pkceFlows = Self.pkceFlows(from: json["pkce_flows"])
  }

  /// Nothing worth keeping (the store may delete the file).
  package var isEmpty: Bool {
    session == nil && keyringSession == nil && rememberedEmail == nil && resetSentAt.isEmpty
      && phoneVerifications.isEmpty && pkceFlows.isEmpty
  }

  /// Drops reset holds older than `window` seconds (or dated in the future by a clock that went
  /// back), so the file does not accumulate addresses.
  package mutating func pruneResetHolds(now: Int, window: Int) {
    resetSentAt = resetSentAt.filter { _, sent in sent <= now && sent > now - window }
  }
}

/// Where sessions live: the platform keyring (tokens) with a file (the rest), the 0600 file alone,
/// or memory. `profile` is the store key: the canonical `BackendKey` of the backend (the name is
/// historical).
package protocol SessionStore: Sendable {
  func load(profile: String) throws -> ProfileState
  func save(_ state: ProfileState, profile: String) throws
  func clear(profile: String) throws
  /// The state as far as it can be read without the secrets (`status`): a session whose tokens
  /// are in the keyring comes back with empty tokens, never to be sent. Never unlocks a keyring.
  func loadSummary(profile: String) throws -> ProfileState
  /// Where the session of `profile` is kept (`status`, `--verbose`).
  func location(profile: String) -> SessionLocation
  /// Throws when sessions cannot be kept here at all (`credential_store = "keyring"` without a
  /// keyring), so a sign-in fails before the password is sent.
  func checkAvailable() throws
}

extension SessionStore {
  package func loadSummary(profile: String) throws -> ProfileState { try load(profile: profile) }
  package func location(profile: String) -> SessionLocation { SessionLocation(.memory, "memory (not saved)") }
  package func checkAvailable() throws {}
}

/// Where a session is kept, for `status` and `--verbose`.
package struct SessionLocation: Sendable, Equatable, CustomStringConvertible {
  package enum Kind: String, Sendable {
    case keyring, file, memory
  }

  package var kind: Kind
  /// "the Secret Service keyring (service=authsh)", "/home/ana/.local/state/authsh/sessions/….json (0600)".
  package var place: String
  /// Why the session cannot be read from here ("the keyring cannot be reached here: …"), or nil.
  package var unreadable: String?

  package init(_ kind: Kind, _ place: String) {
    self.kind = kind
    self.place = place
  }

  package var description: String { place }
}

/// For `.auth` runs and `--no-save`: nothing touches the disk.
package final class InMemorySessionStore: SessionStore, Sendable {
  private let states = Guarded<[String: ProfileState]>([:])

  package init() {}

  package func load(profile: String) throws -> ProfileState { states.update { $0[profile] } ?? ProfileState() }

  package func save(_ state: ProfileState, profile: String) throws { states.update { $0[profile] = state } }

  package func clear(profile: String) throws { states.update { $0[profile] = nil } }
}
