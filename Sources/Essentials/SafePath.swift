/// The one way authsh opens a file it writes or trusts (reports, `--output`, config.toml, the
/// audit log, history, sessions, the keyring fallback): the path is walked one component at a
/// time from `/` (or the working directory), each opened `O_NOFOLLOW` relative to the directory
/// before it, and each symbolic link followed by hand (at most 40 of them). Every hop (directory,
/// link, the file) is refused when another user (not root) owns it, or when it sits in a directory
/// group or others may write to, unless that directory is sticky (`/tmp`) and the entry is yours.
/// The file is opened in the directory where the walk ended: no second lookup by name. The links
/// of /proc (`/dev/stdout`, `/proc/self/fd/1`) are the kernel's, and are opened as it resolves them.
package enum SafePath {
  /// Where a walk ended: an open directory (the caller closes it) and a name in it, which is not a
  /// symbolic link (except a /proc link) and may not exist yet.
  package struct Place: Sendable {
    package let directory: Int32
    package let name: String
    package func close() { closeDescriptor(directory) }
  }

  /// Opens `path` (close-on-exec; `O_TRUNC` applies only once the file is accepted). With
  /// `followLast` false the file itself must not be a link (`ELOOP`, with no reason): only its
  /// directories are walked (the audit log, history and session files).
  package static func open(
    _ path: String, flags: Int32, mode: mode_t = 0o600, followLast: Bool = true
  ) throws(SystemError) -> Int32 {
    let place = try followLast ? locate(path) : parent(of: path)
    defer { place.close() }
    return try open(place, flags: flags, mode: mode, path: path)
  }

  /// Opens `name` in `place`, checking what was opened (no second lookup by name).
  package static func open(_ place: Place, flags: Int32, mode: mode_t, path: String) throws(SystemError) -> Int32 {
    let kernelLink = isProc(place.directory)
    var directory = stat()
    guard fstat(place.directory, &directory) == 0 else { throw SystemError() }
    if directory.st_mode & 0o022 != 0, directory.st_mode & S_ISVTX == 0 {
      // Nothing in it can be trusted: refused before anything is created there.
      var made = stat()
      made.st_uid = geteuid()
      made.st_mode = S_IFREG
      throw SystemError(ELOOP, reason: refusal(made, in: directory, path))
    }
    let open = (flags & ~O_TRUNC) | O_CLOEXEC | (kernelLink ? 0 : O_NOFOLLOW)
    var fd: Int32
    repeat { fd = openat(place.directory, place.name, open, mode) } while fd < 0 && errno == EINTR
    guard fd >= 0 else { throw SystemError() }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let failure = SystemError()
      _ = close(fd)
      throw failure
    }
    if let refusal = kernelLink ? ownerRefusal(info, path) : refusal(info, in: directory, path) {
      _ = close(fd)
      throw SystemError(ELOOP, reason: refusal)
    }
    if flags & O_TRUNC != 0, info.st_mode & S_IFMT == S_IFREG { _ = ftruncate(fd, 0) }
    return fd
  }

  /// Walks every directory of `path` and follows its links, `path` itself included (a link to a
  /// missing file leads to where the file would be created).
  package static func locate(_ path: String) throws(SystemError) -> Place {
    guard !path.isEmpty else { throw SystemError(ENOENT) }
    var directory = try openDirectory(path.hasPrefix("/") ? "/" : ".")
    var pending = Array(components(path).reversed())
    var hops = 0
    var walked = path.hasPrefix("/") ? "" : "."
    if pending.isEmpty { pending = ["."] }
    while let name = pending.popLast() {
      var info = stat()
      var holder = stat()
      guard fstat(directory, &holder) == 0 else { throw closing(directory, SystemError()) }
      if fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
        let failure = SystemError()
        if failure.code == ENOENT, pending.isEmpty { return Place(directory: directory, name: name) }
        throw closing(directory, failure)
      }
      let here = walked + "/" + name
      if name != "..", name != ".", let refusal = refusal(info, in: holder, here) {
        throw closing(directory, SystemError(ELOOP, reason: refusal))
      }
      if info.st_mode & S_IFMT == S_IFLNK {
        if isProc(directory), pending.isEmpty { return Place(directory: directory, name: name) }
        hops += 1
        guard hops <= 40, let target = readLink(directory, name) else {
          throw closing(directory, SystemError(hops > 40 ? ELOOP : errno))
        }
        if target.hasPrefix("/") {
          _ = close(directory)
          directory = try openDirectory("/")
          walked = ""
        }
        pending += components(target).reversed()
        continue
      }
      if pending.isEmpty { return Place(directory: directory, name: name) }
      guard info.st_mode & S_IFMT == S_IFDIR else { throw closing(directory, SystemError(ENOTDIR)) }
      let next = openat(directory, name, pathFlags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard next >= 0 else { throw closing(directory, SystemError()) }
      var opened = stat()
      guard fstat(next, &opened) == 0, opened.st_dev == info.st_dev, opened.st_ino == info.st_ino else {
        _ = close(next)
        throw closing(directory, SystemError(EAGAIN, reason: "\(here) changed while it was being opened"))
      }
      _ = close(directory)
      directory = next
      walked = here
    }
    return Place(directory: directory, name: ".")
  }

  /// The directory `path` names its file in, walked and checked as `locate` does, and the file's
  /// own name in it, not looked at (for `O_EXCL` creation and renameat(2), which follow no link).
  package static func parent(of path: String) throws(SystemError) -> Place {
    let parts = components(path)
    guard let name = parts.last, name != ".", name != ".." else { throw SystemError(EISDIR) }
    let above = (path.hasPrefix("/") ? "/" : "") + parts.dropLast().joined(separator: "/")
    let place = try locate(above.isEmpty ? "." : above)
    defer { place.close() }
    let fd = openat(place.directory, place.name, pathFlags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError() }
    return Place(directory: fd, name: name)
  }

  /// Why the entry `info` (named `path`) in the directory `holder` cannot be trusted, or nil.
  static func refusal(_ info: stat, in holder: stat, _ path: String) -> String? {
    if let owner = ownerRefusal(info, path) { return owner }
    let shared = holder.st_mode & 0o022 != 0
    let sticky = holder.st_mode & S_ISVTX != 0
    guard shared, !(sticky && info.st_uid == geteuid()) else { return nil }
    let kind =
      info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "a file"
    let why = sticky ? "and it is not yours" : "so they could replace it"
    return
      "\(path) is \(kind) in a directory group or others may write to (mode 0\(String(holder.st_mode & 0o7777, radix: 8))), \(why); authsh does not use it"
  }

  static func ownerRefusal(_ info: stat, _ path: String) -> String? {
    guard info.st_uid != geteuid(), info.st_uid != 0 else { return nil }
    let kind =
      info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "a file"
    return "\(path) is \(kind) owned by \(userName(info.st_uid)), not by you or root; authsh does not use it"
  }

  static func userName(_ uid: uid_t) -> String {
    if let entry = getpwuid(uid), let name = entry.pointee.pw_name { return "\(String(cString: name)) (uid \(uid))" }
    return "uid \(uid)"
  }

  private static func components(_ path: String) -> [String] {
    path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
  }

  private static func openDirectory(_ path: String) throws(SystemError) -> Int32 {
    let fd = openDescriptor(path, pathFlags | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError() }
    return fd
  }

  private static func closing(_ fd: Int32, _ error: SystemError) -> SystemError {
    _ = close(fd)
    return error
  }

  private static func readLink(_ directory: Int32, _ name: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlinkat(directory, name, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether `fd` is a directory of /proc (on its device), whose links only the kernel makes.
  private static func isProc(_ fd: Int32) -> Bool {
    var proc = stat()
    var info = stat()
    return stat("/proc", &proc) == 0 && fstat(fd, &info) == 0 && info.st_dev == proc.st_dev
  }

  #if os(Linux)
    /// O_PATH (not exported by Swift's Glibc module): a directory one may only search is walked too.
    private static let pathFlags: Int32 = 0o10_000_000
  #else
    private static let pathFlags = O_RDONLY
  #endif
}

private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
private func openDescriptor(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
