import Foundation
import JSONKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `$XDG_STATE_HOME/authsh/sessions/<profile>.json`: mode 0600 in a 0700 directory, written
/// atomically (temp file, fsync, rename, fsync of the directory). A file that group or others can
/// read is refused, as ssh and libpq refuse loose key files.
public final class FileSessionStore: SessionStore, @unchecked Sendable {
  public let directory: String
  /// Test seam: called after the temp file is written and before the rename (a crash there must
  /// leave the old file intact).
  let beforeRename: (@Sendable () throws -> Void)?

  public init(directory: String) {
    self.directory = directory
    self.beforeRename = nil
  }

  init(directory: String, beforeRename: @escaping @Sendable () throws -> Void) {
    self.directory = directory
    self.beforeRename = beforeRename
  }

  public func path(for profile: String) -> String {
    let safe = profile.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
    return directory + "/" + String(safe) + ".json"
  }

  public func load(profile: String) throws -> ProfileState {
    let path = path(for: profile)
    var info = stat()
    guard stat(path, &info) == 0 else { return ProfileState() }
    if info.st_mode & 0o077 != 0 {
      let mode = String(info.st_mode & 0o777, radix: 8)
      throw AuthError(
        .configError,
        message: "Refusing to use \(path): it is readable by group or others (mode 0\(mode)).",
        hint: "Run: chmod 600 \(path)")
    }
    guard let data = FileManager.default.contents(atPath: path) else { return ProfileState() }
    guard let json = try? JSON.parse(bytes: Array(data)) else {
      throw AuthError(
        .configError, message: "The session file \(path) is not valid JSON.",
        hint: "Remove it and log in again: rm \(path)")
    }
    var state = ProfileState(json: json)
    if var problem = state.sessionProblem {
      problem.message = "The session saved in \(path) cannot be used (a field is missing or out of range)."
      problem.hint = "Run: authsh logout (it removes the saved session), or delete the file: rm \(path)"
      state.sessionProblem = problem
    }
    return state
  }

  public func save(_ state: ProfileState, profile: String) throws {
    try ensureDirectory()
    let target = path(for: profile)
    let temp = target + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let bytes = Array(state.json.prettyText.utf8) + [0x0A]
    let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard fd >= 0 else { throw ioError("create \(temp)") }
    var written = 0
    let ok = bytes.withUnsafeBytes { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      while written < buffer.count {
        let n = write(fd, base + written, buffer.count - written)
        if n <= 0 { return false }
        written += n
      }
      return fsync(fd) == 0
    }
    close(fd)
    guard ok else {
      unlink(temp)
      throw ioError("write \(temp)")
    }
    do {
      try beforeRename?()
    } catch {
      unlink(temp)
      throw error
    }
    guard rename(temp, target) == 0 else {
      unlink(temp)
      throw ioError("rename to \(target)")
    }
    let dirfd = open(directory, O_RDONLY)
    if dirfd >= 0 {
      fsync(dirfd)
      close(dirfd)
    }
  }

  public func clear(profile: String) throws {
    let path = path(for: profile)
    if unlink(path) != 0 && errno != ENOENT { throw ioError("remove \(path)") }
  }

  private func ensureDirectory() throws {
    var info = stat()
    if stat(directory, &info) == 0 { return }
    // Create parents 0700 as well: they hold history and sessions.
    var current = ""
    for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
      current += "/" + component
      if stat(current, &info) != 0 {
        guard mkdir(current, 0o700) == 0 || errno == EEXIST else { throw ioError("create \(current)") }
      }
    }
    chmod(directory, 0o700)
  }

  private func ioError(_ action: String) -> AuthError {
    AuthError(.configError, message: "Could not \(action): \(String(cString: strerror(errno))).")
  }
}
