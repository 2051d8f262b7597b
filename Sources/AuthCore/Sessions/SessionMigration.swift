import Essentials
import JSONKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `authsh secret migrate --to keyring|file`: moves the saved sessions of a state directory
/// between the keyring and their 0600 files. The one way a session changes store: no other
/// command moves a session saved with `credential_store = "file"`.
extension SessionStores {
  /// One session moved: its file and where its tokens now are.
  package struct Move: Sendable, Equatable {
    package var backend: String
    package var file: String
    package var to: CredentialStoreMode
  }

  /// Moves every session of `directory` to `mode` (`keyring` or `file`); what was moved.
  package func migrate(to mode: CredentialStoreMode) throws -> [Move] {
    guard mode != .auto else {
      throw AuthError(.usage, message: "secret migrate --to takes keyring or file.")
    }
    guard let keyring else {
      throw AuthError(.notSupported, message: "There is no keyring here: sessions can only be kept in files.")
    }
    if let reason = keyringUnavailable() {
      throw AuthError(
        .keyringUnavailable, message: "No keyring is reachable: \(reason). Nothing was moved.", hint: Self.keyringHint)
    }
    let files = FileSessionStore(directory: directory, stateDirectory: stateDirectory)
    let keyed = KeyringSessionStore(files: files, keyring: keyring)
    var moved: [Move] = []
    for key in try backends(files) {
      var state = try files.load(profile: key)
      let item = keyed.item(key)
      switch mode {
      case .keyring:
        guard let session = state.session, state.keyringSession == nil else { continue }
        try keyring.write(session.tokensJSON.compactText, to: item)
        state.pinnedStore = nil
        try files.save(state, profile: key, tokensInKeyring: true)
      default:
        guard let recorded = state.keyringSession else { continue }
        guard let secret = try keyring.read(item), let json = try? JSON.parse(bytes: Array(secret.utf8)),
          let session = recorded.withTokens(json)
        else { continue }
        state.keyringSession = nil
        state.sessionProblem = nil
        state.session = session
        state.pinnedStore = CredentialStoreMode.file.rawValue
        try files.save(state, profile: key, tokensInKeyring: false)
        _ = try keyring.delete(item)
      }
      moved.append(Move(backend: key, file: files.path(for: key), to: mode))
    }
    return moved
  }

  /// The backend keys of the session files in `files.directory`.
  private func backends(_ files: FileSessionStore) throws -> [String] {
    guard try files.checkDirectory(create: false), let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var keys: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      guard name.hasSuffix(".json"), !name.hasPrefix("."),
        let bytes = try? Descriptor.readFile(directory + "/" + name),
        let key = (try? JSON.parse(bytes: bytes))?["backend"]?.string,
        files.path(for: key) == directory + "/" + name
      else { continue }
      keys.append(key)
    }
    return keys.sorted()
  }
}
