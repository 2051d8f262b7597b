import Essentials

/// Backends pinned in memory by `login --no-save`, shared by every store of one shell context
/// (the base store may differ per profile: `credential_store`).
package final class SessionPins: Sendable {
  let memory = InMemorySessionStore()
  private let pinned = Guarded<Set<String>>([])

  package init() {}

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
package final class OverlaySessionStore: SessionStore, Sendable {
  package let base: any SessionStore
  let pins: SessionPins

  package init(base: any SessionStore, pins: SessionPins = SessionPins()) {
    self.base = base
    self.pins = pins
  }

  package func pin(_ profile: String) { pins.pin(profile, from: base) }

  private func store(_ profile: String) -> any SessionStore { pins.isPinned(profile) ? pins.memory : base }

  package func load(profile: String) throws -> ProfileState { try store(profile).load(profile: profile) }

  package func save(_ state: ProfileState, profile: String) throws { try store(profile).save(state, profile: profile) }

  package func clear(profile: String) throws { try store(profile).clear(profile: profile) }

  package func loadSummary(profile: String) throws -> ProfileState { try store(profile).loadSummary(profile: profile) }

  package func location(profile: String) -> SessionLocation {
    pins.isPinned(profile) ? SessionLocation(.memory, "memory (login --no-save)") : base.location(profile: profile)
  }

  package func checkAvailable() throws {
    try base.checkAvailable()
  }
}
