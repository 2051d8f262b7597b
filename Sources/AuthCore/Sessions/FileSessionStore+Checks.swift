import Essentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ssh-style checks of the sessions directory and files.
extension FileSessionStore {
  /// Largest session file read (a real one is a few kilobytes).
  static let maximumFileSize = 1 << 20

  /// Checks the sessions directory (creating it 0700 with its parents when `create`), and
  /// authsh's state directory above it when the store knows it; false when it does not exist and
  /// `create` is false.
  /// Before a sign-in is sent: a state or sessions directory that would be refused at saving
  /// time (someone else's link on the way, others may write it) is a configuration error now
  /// (exit 78), not a session the server issued and authsh could not keep.
  package func checkAvailable() throws { _ = try checkDirectory(create: false) }

  func checkDirectory(create: Bool) throws -> Bool {
    if let stateDirectory, try !StateDirectory.check(stateDirectory, create: create) { return false }
    return try PrivateDirectory(directory, what: "the sessions directory").check(create: create)
  }

  /// The bytes of a session file, nil when there is none. Never follows a symbolic link.
  func readPrivateFile(_ path: String) throws -> [UInt8]? {
    // The directories walked by hand (`SafePath`); the file itself opened in the last of them,
    // never through a link, and judged below with its own words.
    let place: SafePath.Place
    do { place = try SafePath.parent(of: path) } catch let failure {
      if failure.code == ENOENT { return nil }
      if let reason = failure.reason { throw AuthError(.configError, message: "Refusing to use \(path): \(reason).") }
      errno = failure.code
      throw PrivateDirectory.failure("open \(path)")
    }
    defer { place.close() }
    let fd = openat(place.directory, place.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      if errno == ELOOP {
        throw AuthError(
          .configError, message: "Refusing to use \(path): it is a symbolic link.",
          hint: "Remove it and log in again: rm \(path)")
      }
      throw PrivateDirectory.failure("open \(path)")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw PrivateDirectory.failure("inspect \(path)") }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw AuthError(
        .configError, message: "Refusing to use \(path): it is not a regular file.", hint: "Remove it: rm \(path)")
    }
    try PrivateDirectory.checkOwner(info, of: path, what: "")
    if info.st_mode & 0o077 != 0 {
      let mode = String(info.st_mode & 0o777, radix: 8)
      throw AuthError(
        .configError,
        message: "Refusing to use \(path): it is readable by group or others (mode 0\(mode)).",
        hint: "Run: chmod 600 \(path)")
    }
    guard info.st_size <= Self.maximumFileSize else {
      throw AuthError(
        .configError, message: "The session file \(path) is too large to be one.",
        hint: "Remove it and log in again: rm \(path)")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while bytes.count <= Self.maximumFileSize {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw PrivateDirectory.failure("read \(path)") }
      if n == 0 { break }
      bytes += chunk[0..<n]
    }
    return bytes
  }
}
