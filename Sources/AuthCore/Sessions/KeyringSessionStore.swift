import Essentials
import JSONKit

/// Sessions whose tokens live in the platform keyring: one item per backend (and state directory)
/// holds the access and refresh tokens; the 0600 file keeps only what is not secret (backend,
/// user, expiry, the remembered e-mail, reset holds), so `status` works without unlocking.
///
/// A file in the older format (tokens inside) is moved into the keyring the first time it is
/// read: the item is written, then the file rewritten without the tokens. A keyring item whose
/// file is gone (removed by hand) is deleted when its backend is next used.
package final class KeyringSessionStore: SessionStore, Sendable {
  package let files: FileSessionStore
  package let keyring: any SecretStore

  package init(files: FileSessionStore, keyring: any SecretStore) {
    self.files = files
    self.keyring = keyring
  }

  func item(_ key: String) -> SecretItem { .session(backend: key, file: files.path(for: key)) }

  package func load(profile key: String) throws -> ProfileState {
    guard files.exists(profile: key) else {
      // The file was removed (the documented way to forget a session): so is its item.
      _ = try? keyring.delete(item(key))
      return ProfileState()
    }
    var state = try files.load(profile: key)
    if let recorded = state.keyringSession {
      state.keyringSession = nil
      state.sessionProblem = nil
      let secret = try keyring.read(item(key))
      if let secret, let json = try? JSON.parse(bytes: Array(secret.utf8)), let session = recorded.withTokens(json) {
        state.session = session
      } else {
        state.sessionProblem = AuthError(
          .notAuthenticated,
          message: "The tokens of the session saved in \(files.path(for: key)) are no longer in \(keyring.name).",
          hint: "Log in again.")
      }
    } else if state.pinnedStore == CredentialStoreMode.file.rawValue {
      // Saved with the file store chosen explicitly: it stays there (secret migrate moves it).
      return state
    } else if let session = state.session, state.backend == key {
      // Today's file format, or a session kept in the file while no keyring was reachable.
      try keyring.write(session.tokensJSON.compactText, to: item(key))
      try files.save(state, profile: key, tokensInKeyring: true)
    } else if state.session == nil, state.sessionProblem == nil {
      _ = try? keyring.delete(item(key))
    }
    return state
  }

  package func loadSummary(profile key: String) throws -> ProfileState { try files.loadSummary(profile: key) }

  package func save(_ state: ProfileState, profile key: String) throws {
    if state.session != nil, (try? files.load(profile: key))?.pinnedStore == CredentialStoreMode.file.rawValue {
      var pinned = state
      pinned.pinnedStore = CredentialStoreMode.file.rawValue
      return try files.save(pinned, profile: key, tokensInKeyring: false)
    }
    if let session = state.session {
      try keyring.write(session.tokensJSON.compactText, to: item(key))
      try files.save(state, profile: key, tokensInKeyring: true)
    } else {
      var rest = state
      rest.keyringSession = nil
      try files.save(rest, profile: key, tokensInKeyring: false)
      try keyring.delete(item(key))
    }
  }

  package func clear(profile key: String) throws {
    try files.clear(profile: key)
    try keyring.delete(item(key))
  }

  package func location(profile key: String) -> SessionLocation {
    if (try? files.load(profile: key))?.pinnedStore == CredentialStoreMode.file.rawValue {
      return SessionLocation(
        .file,
        "\(files.path(for: key)) (0600; saved with credential_store = \"file\": authsh secret migrate --to keyring moves it)"
      )
    }
    return SessionLocation(
      .keyring, "\(keyring.name) (service=\(SecretItem.service)); \(files.path(for: key)) keeps the rest")
  }
}

/// Where `credential_store = "keyring"` was asked for and no keyring is reachable: every call
/// fails with the reason (exit 78), before anything is sent.
package struct UnavailableSessionStore: SessionStore {
  package let error: AuthError

  package init(_ error: AuthError) { self.error = error }

  package func load(profile: String) throws -> ProfileState { throw error }
  package func save(_ state: ProfileState, profile: String) throws { throw error }
  package func clear(profile: String) throws { throw error }
  package func checkAvailable() throws { throw error }
  package func location(profile: String) -> SessionLocation { SessionLocation(.keyring, "nowhere: \(error.message)") }
}
