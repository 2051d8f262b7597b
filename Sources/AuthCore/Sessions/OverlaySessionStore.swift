import Foundation

/// A store whose pinned profiles live in memory (`login --no-save`), the rest in `base`.
/// A pinned profile starts from what `base` holds and never writes back.
public final class OverlaySessionStore: SessionStore, @unchecked Sendable {
  public let base: any SessionStore
  private let memory = InMemorySessionStore()
  private let lock = NSLock()
  private var pinned: Set<String> = []

  public init(base: any SessionStore) { self.base = base }

  public func pin(_ profile: String) {
    lock.lock()
    let isNew = pinned.insert(profile).inserted
    lock.unlock()
    if isNew, let current = try? base.load(profile: profile) { try? memory.save(current, profile: profile) }
  }

  private func isPinned(_ profile: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return pinned.contains(profile)
  }

  public func load(profile: String) throws -> ProfileState {
    try isPinned(profile) ? memory.load(profile: profile) : base.load(profile: profile)
  }

  public func save(_ state: ProfileState, profile: String) throws {
    try isPinned(profile) ? memory.save(state, profile: profile) : base.save(state, profile: profile)
  }

  public func clear(profile: String) throws {
    try isPinned(profile) ? memory.clear(profile: profile) : base.clear(profile: profile)
  }
}
