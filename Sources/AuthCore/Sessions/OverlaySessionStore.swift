import Essentials

/// Backends pinned in memory by `login --no-save`, shared by every store of one shell context
/// (the base store may differ per profile: `credential_store`).
public final class SessionPins: Sendable {
  let memory = InMemorySessionStore()
  private let pinned = Guarded<Set<String>>([])

  public init() {}

  /// Pins `profile`, starting from what `base` holds; false when it was pinned already.
  func pin(_ profile: String, from base: any SessionStore) {
    let isNew = pinned.update { $0.insert(profile).inserted }
    if isNew, let current = try? base.load(profile: profile) { try? memory.save(current, profile: profile) }
  }

  func isPinned(_ profile: String) -> Bool {
    pinned.update { $0.contains(profile) }
  }
}

/// A store whose pinned profiles live in memory (`login --no-save`), the rest in `base`.
/// A pinned profile starts from what `base` holds and never writes back.
public final class OverlaySessionStore: SessionStore, Sendable {
  public let base: any SessionStore
  let pins: SessionPins

  public init(base: any SessionStore, pins: SessionPins = SessionPins()) {
    self.base = base
    self.pins = pins
  }

  public func pin(_ profile: String) { pins.pin(profile, from: base) }

  private func store(_ profile: String) -> any SessionStore { pins.isPinned(profile) ? pins.memory : base }

  public func load(profile: String) throws -> ProfileState { try store(profile).load(profile: profile) }

  public func save(_ state: ProfileState, profile: String) throws { try store(profile).save(state, profile: profile) }

  public func clear(profile: String) throws { try store(profile).clear(profile: profile) }

  public func loadSummary(profile: String) throws -> ProfileState { try store(profile).loadSummary(profile: profile) }

  public func location(profile: String) -> SessionLocation {
    pins.isPinned(profile) ? SessionLocation(.memory, "memory (login --no-save)") : base.location(profile: profile)
  }

  public func checkAvailable() throws {
    try base.checkAvailable()
  }
}
