import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ssh-style checks of the sessions directory and files.
extension FileSessionStore {
  /// Largest session file read (a real one is a few kilobytes).
  static let maximumFileSize = 1 << 20

  /// Checks the sessions directory (creating it 0700 with its parents when `create`); false when
  /// it does not exist and `create` is false.
  func checkDirectory(create: Bool) throws -> Bool {
    var info = stat()
    if lstat(directory, &info) != 0 {
      guard errno == ENOENT else { throw failure("inspect \(directory)") }
      guard create else { return false }
      try createDirectory()
      guard lstat(directory, &info) == 0 else { throw failure("inspect \(directory)") }
    }
    let kind = info.st_mode & S_IFMT
    if kind == S_IFLNK {
      throw AuthError(
        .configError, message: "Refusing to use the sessions directory \(directory): it is a symbolic link.",
        hint: "Make it a real directory: rm \(directory) && mkdir -m 700 \(directory)")
    }
    guard kind == S_IFDIR else {
      throw AuthError(
        .configError, message: "Refusing to use the sessions directory \(directory): it is not a directory.",
        hint: "Move it away and let authsh create it: mv \(directory) \(directory).old")
    }
    try checkOwner(info, of: directory, what: "the sessions directory")
    let mode = info.st_mode & 0o777
    if mode & 0o022 != 0 {
      throw AuthError(
        .configError,
        message: "Refusing to use the sessions directory \(directory): group or others can write to it (mode 0\(String(mode, radix: 8))).",
        hint: "Run: chmod 700 \(directory)")
    }
    if mode & 0o077 != 0 { chmod(directory, 0o700) }
    return true
  }

  /// The bytes of a session file, nil when there is none. Never follows a symbolic link.
  func readPrivateFile(_ path: String) throws -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      if errno == ELOOP {
        throw AuthError(
          .configError, message: "Refusing to use \(path): it is a symbolic link.",
          hint: "Remove it and log in again: rm \(path)")
      }
      throw failure("open \(path)")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure("inspect \(path)") }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw AuthError(
        .configError, message: "Refusing to use \(path): it is not a regular file.", hint: "Remove it: rm \(path)")
    }
    try checkOwner(info, of: path, what: "")
    if info.st_mode & 0o077 != 0 {
      let mode = String(info.st_mode & 0o777, radix: 8)
      throw AuthError(
        .configError,
        message: "Refusing to use \(path): it is readable by group or others (mode 0\(mode)).",
        hint: "Run: chmod 600 \(path)")
    }
    guard info.st_size <= Self.maximumFileSize else {
      throw AuthError(
        .configError, message: "The session file \(path) is too large to be one.", hint: "Remove it and log in again: rm \(path)")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while bytes.count <= Self.maximumFileSize {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw failure("read \(path)") }
      if n == 0 { break }
      bytes += chunk[0..<n]
    }
    return bytes
  }

  private func checkOwner(_ info: stat, of path: String, what: String) throws {
    let me = geteuid()
    guard info.st_uid != me else { return }
    let name = what.isEmpty ? path : "\(what) \(path)"
    throw AuthError(
      .configError, message: "Refusing to use \(name): it is owned by uid \(info.st_uid), not by you (uid \(me)).",
      hint: "Give it back to yourself (chown \(me) \(path)) or point XDG_STATE_HOME at a directory of your own.")
  }

  /// Creates the directory and missing parents 0700 (they hold history and sessions).
  private func createDirectory() throws {
    var info = stat()
    var current = ""
    for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
      current += "/" + component
      if stat(current, &info) != 0 {
        guard mkdir(current, 0o700) == 0 || errno == EEXIST else { throw failure("create \(current)") }
      }
    }
    chmod(directory, 0o700)
  }

  private func failure(_ action: String) -> AuthError {
    AuthError(.configError, message: "Could not \(action): \(String(cString: strerror(errno))).")
  }
}
