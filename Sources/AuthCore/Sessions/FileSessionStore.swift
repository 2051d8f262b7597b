import Essentials
import JSONKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `$XDG_STATE_HOME/authsh/sessions/<provider>-<host>[-<port>]-<hash>.json`, one file per backend
/// (`BackendKey.fileStem`): mode 0600 in a 0700 directory, written atomically (temp file, fsync,
/// rename, fsync of the directory). As ssh does, a session file that group or others can read, a
/// symbolic link, or a file or directory owned by someone else is refused; a directory that group
/// or others can write is refused, one they can merely read is tightened to 0700.
package final class FileSessionStore: SessionStore, Sendable {
  package let directory: String
  /// `$XDG_STATE_HOME/authsh`, checked before the sessions directory inside it (nil: not checked).
  package let stateDirectory: String?
  /// Test seam: called after the temp file is written and before the rename (a crash there must
  /// leave the old file intact).
  let beforeRename: (@Sendable () throws -> Void)?
  /// Why the keyring is not used (`credential_store = "file"`, or no keyring is reachable), for
  /// the message about a session whose tokens are in the keyring; nil: the keyring's own files.
  package var keyringAbsence: String? {
    get { hooks[\.keyringAbsence] }
    set { hooks[\.keyringAbsence] = newValue }
  }
  /// Told, with the sentence to show, when a file starts to hold a session's tokens because no
  /// keyring is reachable (`credential_store = "auto"`): once per backend, not on every refresh.
  package var onTokensInFile: (@Sendable (String) -> Void)? {
    get { hooks[\.onTokensInFile] }
    set { hooks[\.onTokensInFile] = newValue }
  }
  /// Why the keyring cannot be reached, when `credential_store = "auto"` fell back to this file
  /// (nil: the file was chosen, or the keyring is in use).
  package var keyringUnreachable: String? {
    get { hooks[\.keyringUnreachable] }
    set { hooks[\.keyringUnreachable] = newValue }
  }
  /// Whether `credential_store = "file"` was chosen (a session saved is pinned to the file).
  package var chosenExplicitly: Bool {
    get { hooks[\.chosenExplicitly] }
    set { hooks[\.chosenExplicitly] = newValue }
  }
  private let hooks = Guarded<Hooks>(Hooks())

  private struct Hooks: Sendable {
    var keyringAbsence: String?
    var onTokensInFile: (@Sendable (String) -> Void)?
    var keyringUnreachable: String?
    var chosenExplicitly = false
  }

  package init(directory: String, stateDirectory: String? = nil) {
    self.directory = directory
    self.stateDirectory = stateDirectory
    self.beforeRename = nil
  }

  init(directory: String, beforeRename: @escaping @Sendable () throws -> Void) {
    self.directory = directory
    self.stateDirectory = nil
    self.beforeRename = beforeRename
  }

  /// The file of a store key (a canonical `BackendKey`).
  package func path(for key: String) -> String {
    directory + "/" + BackendKey.fileStem(key) + ".json"
  }

  /// The stored state; a file that does not record the key it belongs to comes back with
  /// `backend == ""`, one saved for another key with that key (callers never use its session).
  package func load(profile key: String) throws -> ProfileState {
    guard try checkDirectory(create: false) else { return ProfileState() }
    let path = path(for: key)
    guard let bytes = try readPrivateFile(path) else { return ProfileState() }
    guard let json = try? JSON.parse(bytes: bytes), json.object != nil else {
      throw AuthError(
        .configError, message: "The session file \(path) is not valid JSON.",
        hint: "Remove it and log in again: rm \(path)")
    }
    var state = ProfileState(json: json)
    if state.backend == nil { state.backend = "" }
    if var problem = state.sessionProblem {
      if state.keyringSession != nil, let reason = keyringUnreachable {
        // credential_store = "auto" already: the keyring is wanted but out of reach from here.
        problem = AuthError(
          .keyringUnavailable,
          message:
            "The session saved in \(path) keeps its tokens in the keyring, and the keyring cannot be reached here: \(reason).",
          hint:
            "Run it where the keyring can be reached (your desktop session), or log in again to keep a new session in the file."
        )
      } else if state.keyringSession != nil {
        problem.message =
          "The session saved in \(path) keeps its tokens in the keyring, which is not used here"
          + (keyringAbsence.map { " (\($0))" } ?? "") + "."
        problem.hint =
          "Use the keyring (credential_store = \"auto\", or --credential-store auto), or log in again to keep a new session in the file."
      } else {
        problem.message = "The session saved in \(path) cannot be used (a field is missing or out of range)."
        problem.hint = "Run: authsh logout (it removes the saved session), or delete the file: rm \(path)"
      }
      state.sessionProblem = problem
    }
    return state
  }

  package func save(_ state: ProfileState, profile key: String) throws {
    var state = state
    if chosenExplicitly, state.session != nil { state.pinnedStore = CredentialStoreMode.file.rawValue }
    if let onTokensInFile, state.session != nil, (try? load(profile: key))?.session == nil {
      try save(state, profile: key, tokensInKeyring: false)
      onTokensInFile("no keyring: session kept in \(path(for: key)) (0600)" + (keyringAbsence.map { "; \($0)" } ?? ""))
      return
    }
    try save(state, profile: key, tokensInKeyring: false)
  }

  /// A session whose tokens are in the keyring shows as it is recorded (`status`), even where
  /// the keyring is not used or cannot be reached: user and expiry, no tokens.
  package func loadSummary(profile key: String) throws -> ProfileState {
    var state = try load(profile: key)
    if let recorded = state.keyringSession {
      state.session = recorded
      state.keyringSession = nil
      state.sessionProblem = nil
    }
    return state
  }

  package func location(profile key: String) -> SessionLocation {
    if let state = try? load(profile: key), state.keyringSession != nil {
      // The file keeps only the record: the tokens are in a keyring this run does not read.
      let why =
        keyringUnreachable.map { "the keyring cannot be reached here: \($0)" }
        ?? "the keyring is not used here" + (keyringAbsence.map { " (\($0))" } ?? "")
      var location = SessionLocation(
        .keyring, "the keyring (service=\(SecretItem.service)); \(path(for: key)) keeps the rest")
      location.unreadable = why
      return location
    }
    return SessionLocation(.file, "\(path(for: key)) (0600)" + (keyringAbsence.map { "; \($0)" } ?? ""))
  }

  /// Whether the file of `key` exists (a keyring item whose file is gone is cleaned up).
  func exists(profile key: String) -> Bool {
    var info = stat()
    return lstat(path(for: key), &info) == 0 || errno != ENOENT
  }

  /// Writes the state; `tokensInKeyring`: the session without its tokens (the keyring has them).
  func save(_ state: ProfileState, profile key: String, tokensInKeyring: Bool) throws {
    _ = try checkDirectory(create: true)
    let target = path(for: key)
    // The directory walked by hand (`SafePath`); the file made and renamed in it by descriptor.
    let place: SafePath.Place
    do { place = try SafePath.parent(of: target) } catch {
      guard let reason = error.reason else { throw ioError("open the directory of \(target)", errno: error.code) }
      throw AuthError(.configError, message: "Refusing to use \(target): \(reason).")
    }
    defer { place.close() }
    let name = place.name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let temp = parentDirectory(of: target) + "/" + name
    let bytes = Array(state.json(tokensInKeyring: tokensInKeyring).prettyText.utf8) + [0x0A]
    let fd = openat(place.directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw ioError("create \(temp)", errno: errno) }
    var failure = Descriptor.writeAll(fd, bytes).failure
    if failure == nil, fsync(fd) != 0 { failure = errno }
    close(fd)
    if let failure {
      unlinkat(place.directory, name, 0)
      throw ioError("write \(temp)", errno: failure)
    }
    do {
      try beforeRename?()
    } catch {
      unlinkat(place.directory, name, 0)
      throw error
    }
    // rename replaces a symbolic link at `target` itself; it never writes through it.
    guard renameat(place.directory, name, place.directory, place.name) == 0 else {
      let code = errno
      unlinkat(place.directory, name, 0)
      throw ioError("rename to \(target)", errno: code)
    }
    fsync(place.directory)
  }

  package func clear(profile key: String) throws {
    guard try checkDirectory(create: false) else { return }
    let path = path(for: key)
    if unlink(path) != 0 && errno != ENOENT { throw ioError("remove \(path)", errno: errno) }
  }

  private func ioError(_ action: String, errno code: Int32) -> AuthError {
    AuthError(.configError, message: "Could not \(action): \(String(cString: strerror(code))).")
  }
}
