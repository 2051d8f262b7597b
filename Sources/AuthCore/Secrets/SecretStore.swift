import Essentials

/// One secret authsh keeps in the platform keyring: the tokens of a session, or an admin key
/// stored with `authsh secret set NAME`.
package struct SecretItem: Sendable, Hashable {
  package enum Kind: String, Sendable, CaseIterable {
    case session
    case serviceKey = "service_key"
  }

  package let kind: Kind
  /// A session: the canonical `BackendKey`. An admin key: the name given to `secret set`.
  package let name: String
  /// A session: the session file that refers to the item. A keyring serves every state directory
  /// of the user, so the file is part of the item's identity: two state directories never share,
  /// or clean up, each other's session.
  package let file: String?

  package init(kind: Kind, name: String, file: String? = nil) {
    self.kind = kind
    self.name = name
    self.file = file
  }

  package static func session(backend: String, file: String) -> SecretItem {
    SecretItem(kind: .session, name: backend, file: file)
  }

  package static func serviceKey(_ name: String) -> SecretItem { SecretItem(kind: .serviceKey, name: name) }

  /// The attribute every item carries: `secret-tool search service authsh` lists them all.
  package static let service = "authsh"

  /// The item's attributes, in a fixed order: `service=authsh`, `kind`, then `backend` and `file`
  /// (a session) or `name` (an admin key).
  package var attributes: [(name: String, value: String)] {
    var list: [(name: String, value: String)] = [("service", Self.service), ("kind", kind.rawValue)]
    switch kind {
    case .session:
      list.append(("backend", name))
      if let file { list.append(("file", file)) }
    case .serviceKey:
      list.append(("name", name))
    }
    return list
  }

  /// Every attribute name an item may carry (a Secret Service schema declares them).
  package static let attributeNames = ["service", "kind", "backend", "file", "name"]

  /// What a keyring manager (Seahorse, KWallet, Keychain Access) shows.
  package var label: String {
    switch kind {
    case .session: return "authsh session: \(name)"
    case .serviceKey: return "authsh secret: \(name)"
    }
  }

  /// One string naming the item, for keyrings that key items by an account name (the macOS
  /// Keychain): `session:<file>` (the file names the backend) or `service_key:<name>`.
  package var account: String { kind.rawValue + ":" + (kind == .session ? (file ?? name) : name) }
}

/// The platform keyring: the freedesktop Secret Service on Linux, the login Keychain on macOS.
/// Values are secrets: implementations never log or print them, and errors never quote them.
package protocol SecretStore: Sendable {
  /// Where secrets go, for messages: "the Secret Service keyring", "the login Keychain".
  var name: String { get }
  /// nil when items can be read and written now; else what is missing, in words a user can act
  /// on ("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"). Never prompts.
  func unavailableReason() -> String?
  func read(_ item: SecretItem) throws -> String?
  /// Creates the item or replaces its value.
  func write(_ value: String, to item: SecretItem) throws
  /// Whether there was an item to delete.
  @discardableResult func delete(_ item: SecretItem) throws -> Bool
  /// The names of the items of one kind (`secret list`), sorted.
  func names(of kind: SecretItem.Kind) throws -> [String]
}

/// A keyring in memory: unit tests, and a stand-in that says why it is not there.
package final class InMemorySecretStore: SecretStore, Sendable {
  package let name: String
  private let items = Guarded<[SecretItem: String]>([:])
  private let reason: Guarded<String?>

  /// `unavailable`: the reason `unavailableReason()` gives (reads and writes then fail).
  package init(name: String = "the test keyring", unavailable: String? = nil) {
    self.name = name
    self.reason = Guarded(unavailable)
  }

  package func setUnavailable(_ reason: String?) { self.reason[\.self] = reason }

  package func unavailableReason() -> String? { reason[\.self] }

  /// Every item, for tests that look at what was stored.
  package var all: [SecretItem: String] { items[\.self] }

  package func read(_ item: SecretItem) throws -> String? {
    try withItems { $0[item] }
  }

  package func write(_ value: String, to item: SecretItem) throws {
    try withItems { $0[item] = value }
  }

  package func delete(_ item: SecretItem) throws -> Bool {
    try withItems { $0.removeValue(forKey: item) != nil }
  }

  package func names(of kind: SecretItem.Kind) throws -> [String] {
    try withItems { items in items.keys.filter { $0.kind == kind }.map(\.name).sorted() }
  }

  private func withItems<T: Sendable>(_ body: (inout [SecretItem: String]) -> T) throws -> T {
    if let reason = reason[\.self] { throw AuthError(.configError, message: "No keyring: \(reason).") }
    return items.update(body)
  }
}
