import Foundation
import JSONKit

/// What authsh keeps per backend (see `BackendKey`): the session, the remembered e-mail, reset
/// cooldowns.
public struct ProfileState: Sendable, Equatable {
  /// The canonical `BackendKey` the state was saved for; a file store returns `""` for a file that
  /// does not record one (never trusted).
  public var backend: String?
  public var session: AuthSession?
  /// `login --remember`: the default e-mail for the next `login`.
  public var rememberedEmail: String?
  /// Lower-cased e-mail → Unix time of the last reset request (the 60 s cooldown).
  public var resetSentAt: [String: Int]
  /// Set when the stored session is there but cannot be used (an expiry out of range, a missing
  /// token): session commands fail with this error instead of using it; `logout` removes it.
  public var sessionProblem: AuthError?

  public init(
    session: AuthSession? = nil, rememberedEmail: String? = nil, resetSentAt: [String: Int] = [:], backend: String? = nil
  ) {
    self.backend = backend
    self.session = session
    self.rememberedEmail = rememberedEmail
    self.resetSentAt = resetSentAt
  }

  public var json: JSON {
    var object = JSONObject()
    object["version"] = 2
    object["backend"] = .optional(backend)
    object["session"] = session?.storedJSON ?? .null
    object["remembered_email"] = .optional(rememberedEmail)
    object["reset_sent_at"] = .object(
      JSONObject(resetSentAt.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) }))
    return .object(object)
  }

  public init(json: JSON) {
    backend = json["backend"]?.string
    session = json["session"].flatMap(AuthSession.init(storedJSON:))
    if session == nil, let stored = json["session"], !stored.isNull {
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
  }

  /// Nothing worth keeping (the store may delete the file).
  public var isEmpty: Bool { session == nil && rememberedEmail == nil && resetSentAt.isEmpty }

  /// Drops reset holds older than `window` seconds (or dated in the future by a clock that went
  /// back), so the file does not accumulate addresses.
  public mutating func pruneResetHolds(now: Int, window: Int) {
    resetSentAt = resetSentAt.filter { _, sent in sent <= now && sent > now - window }
  }
}

/// Where sessions live. A file store today; an OS keyring can implement the same three calls.
/// `profile` is the store key: the canonical `BackendKey` of the backend (the name is historical).
public protocol SessionStore: Sendable {
  func load(profile: String) throws -> ProfileState
  func save(_ state: ProfileState, profile: String) throws
  func clear(profile: String) throws
}

/// For `.auth` runs and `--no-save`: nothing touches the disk.
public final class InMemorySessionStore: SessionStore, @unchecked Sendable {
  private let lock = NSLock()
  private var states: [String: ProfileState] = [:]

  public init() {}

  public func load(profile: String) throws -> ProfileState {
    lock.lock()
    defer { lock.unlock() }
    return states[profile] ?? ProfileState()
  }

  public func save(_ state: ProfileState, profile: String) throws {
    lock.lock()
    states[profile] = state
    lock.unlock()
  }

  public func clear(profile: String) throws {
    lock.lock()
    states[profile] = nil
    lock.unlock()
  }
}
