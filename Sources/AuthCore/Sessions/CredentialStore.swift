import Essentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `credential_store` (profile), `--credential-store`, `AUTHSH_CREDENTIAL_STORE`: where sessions
/// are kept.
package enum CredentialStoreMode: String, Sendable, CaseIterable {
  /// The platform keyring when one is reachable, else the 0600 file (with one notice).
  case auto
  /// The keyring or nothing: without one, session commands fail (exit 78) naming what is missing.
  case keyring
  /// The 0600 file, never the keyring.
  case file
}

/// The mode and where it was set, for messages.
package struct CredentialStoreChoice: Sendable, Equatable {
  package var mode: CredentialStoreMode
  /// `--credential-store`, `AUTHSH_CREDENTIAL_STORE`, `credential_store in [profiles.x] of PATH`;
  /// nil for the default (`auto`).
  package var source: String?

  package init(_ mode: CredentialStoreMode = .auto, source: String? = nil) {
    self.mode = mode
    self.source = source
  }

  /// `credential_store = "file" (from --credential-store)`.
  package var phrase: String {
    "credential_store = \"\(mode.rawValue)\"" + (source.map { " (from \($0))" } ?? "")
  }
}

/// Picks the session store for a choice: the keyring store when the platform keyring is
/// reachable, else the file (`auto`, with a notice when a file first holds tokens) or an error
/// (`keyring`). Whether the keyring is reachable is found out once, on first use, and only by
/// commands that touch a session.
package final class SessionStores: Sendable {
  package let directory: String
  /// `$XDG_STATE_HOME/authsh`, checked before the sessions directory (nil: not checked).
  package let stateDirectory: String?
  /// nil: the platform has no keyring authsh can use.
  package let keyring: (any SecretStore)?
  let notice: @Sendable (String) -> Void
  private let probed = Guarded<String??>(nil)

  /// `notice`: a sentence for standard error ("no keyring: session kept in FILE (0600); …").
  package init(
    directory: String, stateDirectory: String? = nil, keyring: (any SecretStore)?,
    notice: @escaping @Sendable (String) -> Void
  ) {
    self.directory = directory
    self.stateDirectory = stateDirectory
    self.keyring = keyring
    self.notice = notice
  }

  /// Why no keyring can be used here, or nil when one can. Asked once.
  package func keyringUnavailable() -> String? {
    probed.update { probed in
      if let probed { return probed }
      let reason = keyring.map { $0.unavailableReason() } ?? "this platform has no keyring authsh can use"
      probed = .some(reason)
      return reason
    }
  }

  /// The store for `choice`, decided when it is first used.
  package func store(for choice: CredentialStoreChoice) -> any SessionStore {
    DeferredSessionStore { [self] in self.resolve(choice) }
  }

  func resolve(_ choice: CredentialStoreChoice) -> any SessionStore {
    let files = FileSessionStore(directory: directory, stateDirectory: stateDirectory)
    switch choice.mode {
    case .file:
      files.keyringAbsence = choice.phrase
      files.chosenExplicitly = choice.source != nil
      return files
    case .keyring, .auto:
      if let keyring, keyringUnavailable() == nil { return KeyringSessionStore(files: files, keyring: keyring) }
      let reason = keyringUnavailable() ?? ""
      if choice.mode == .keyring {
        return UnavailableSessionStore(
          AuthError(
            .configError, message: "No keyring is reachable for \(choice.phrase): \(reason).",
            hint: Self.keyringHint))
      }
      files.keyringAbsence = reason
      files.keyringUnreachable = reason
      files.onTokensInFile = { [self] line in self.noticeOnce(line) }
      return files
    }
  }

  /// The "no keyring" notice, once per machine and store: the host names it was shown on are
  /// kept in `STATE/no-keyring-notice` (the store is the state directory's sessions).
  func noticeOnce(_ line: String) {
    guard let stateDirectory else { return notice(line) }
    let marker = stateDirectory + "/no-keyring-notice"
    let host = Self.hostName()
    let shown = (try? Descriptor.readFile(marker)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    if shown.split(separator: "\n").contains(where: { String($0) == host }) { return }
    notice(line)
    let fd = (try? Descriptor.openForAppending(marker)) ?? (try? Descriptor.createNew(marker, mode: 0o600))
    guard let fd else { return }
    _ = Descriptor.writeAll(fd, Array((host + "\n").utf8))
    Descriptor.release(fd)
  }

  static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// What to do when the keyring is missing, on this platform (sessions: or keep them in a file).
  package static var keyringHint: String { keyringHint(otherwise: "or use --credential-store file (a 0600 file)") }

  /// Admin keys: no file store stands in for the keyring, but other settings do.
  package static var secretsKeyringHint: String {
    keyringHint(otherwise: "or name the key with service_key_env / credentials_file instead")
  }

  static func keyringHint(otherwise: String) -> String {
    #if os(macOS)
      return "Unlock the login Keychain (security unlock-keychain), \(otherwise)."
    #else
      return
        "Use authsh in a desktop session (where the keyring can be unlocked), or start a Secret Service in this D-Bus session (gnome-keyring-daemon --unlock, KeePassXC), \(otherwise)."
    #endif
  }
}

/// A store chosen on first use (the keyring probe costs a D-Bus round trip: commands that never
/// touch a session never pay it).
final class DeferredSessionStore: SessionStore, Sendable {
  private let make: @Sendable () -> any SessionStore
  private let made = Guarded<(any SessionStore)?>(nil)

  init(_ make: @escaping @Sendable () -> any SessionStore) { self.make = make }

  var base: any SessionStore {
    made.update { made in
      if let made { return made }
      let store = make()
      made = store
      return store
    }
  }

  func load(profile: String) throws -> ProfileState { try base.load(profile: profile) }
  func save(_ state: ProfileState, profile: String) throws { try base.save(state, profile: profile) }
  func clear(profile: String) throws { try base.clear(profile: profile) }
  func loadSummary(profile: String) throws -> ProfileState { try base.loadSummary(profile: profile) }
  func location(profile: String) -> SessionLocation { base.location(profile: profile) }
  func checkAvailable() throws { try base.checkAvailable() }
}
