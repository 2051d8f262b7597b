import Essentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One of authsh's own directories (`$XDG_STATE_HOME/authsh`, its `sessions`), checked as ssh
/// checks `~/.ssh`: a symbolic link, something else than a directory, a directory owned by someone
/// else or one that group or others can write is refused (`config_error`, exit 78) with the fix;
/// one they can merely read is tightened to 0700. Missing, it is created 0700 with its parents.
package struct PrivateDirectory: Sendable {
  package let path: String
  /// How messages name it: "the sessions directory".
  package let what: String

  package init(_ path: String, what: String) {
    self.path = path
    self.what = what
  }

  /// Checks the directory (creating it when `create`); false when it does not exist and `create`
  /// is false.
  package func check(create: Bool) throws -> Bool {
    var info = stat()
    if lstat(path, &info) != 0 {
      guard errno == ENOENT else { throw Self.failure("inspect \(path)") }
      guard create else { return false }
      try Self.create(path)
      guard lstat(path, &info) == 0 else { throw Self.failure("inspect \(path)") }
    }
    let kind = info.st_mode & S_IFMT
    if kind == S_IFLNK {
      throw AuthError(
        .configError, message: "Refusing to use \(what) \(path): it is a symbolic link.",
        hint: "Make it a real directory: rm \(path) && mkdir -m 700 \(path)")
    }
    guard kind == S_IFDIR else {
      throw AuthError(
        .configError, message: "Refusing to use \(what) \(path): it is not a directory.",
        hint: "Move it away and let authsh create it: mv \(path) \(path).old")
    }
    try Self.checkOwner(info, of: path, what: what)
    let mode = info.st_mode & 0o777
    if mode & 0o022 != 0 {
      throw AuthError(
        .configError,
        message: "Refusing to use \(what) \(path): group or others can write to it (mode 0\(String(mode, radix: 8))).",
        hint: "Run: chmod 700 \(path)")
    }
    if mode & 0o077 != 0 { chmod(path, 0o700) }
    return true
  }

  /// Refuses `info` (of `path`) unless it belongs to the effective user.
  static func checkOwner(_ info: stat, of path: String, what: String, rootToo: Bool = false) throws {
    let me = geteuid()
    guard info.st_uid != me, !(rootToo && info.st_uid == 0) else { return }
    let name = what.isEmpty ? path : "\(what) \(path)"
    throw AuthError(
      .configError, message: "Refusing to use \(name): it is owned by uid \(info.st_uid), not by you (uid \(me)).",
      hint: "Give it back to yourself (chown \(me) \(path)) or point XDG_STATE_HOME at a directory of your own.")
  }

  /// Creates the directory and missing parents 0700 (they hold history and sessions).
  static func create(_ directory: String) throws {
    var info = stat()
    var current = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
      current += "/" + component
      if stat(current, &info) != 0 {
        guard mkdir(current, 0o700) == 0 || errno == EEXIST else { throw failure("create \(current)") }
      }
    }
    chmod(directory, 0o700)
  }

  static func failure(_ action: String) -> AuthError {
    AuthError(.configError, message: "Could not \(action): \(String(cString: strerror(errno))).")
  }
}

/// `$XDG_STATE_HOME/authsh` (history, sessions, the audit log), checked before any of them is
/// used: the directory itself as a `PrivateDirectory`, and the one above it (which may be a link,
/// as dotfile managers make them) must be yours or root's and not writable by group or others,
/// unless sticky like /tmp, where nobody else can move `authsh/` away.
package enum StateDirectory {
  package static func check(_ path: String, create: Bool) throws -> Bool {
    // Every hop to it walked by hand (`SafePath`): no link of someone else's on the way.
    do {
      try SafePath.parent(of: path).close()  // the directory itself is judged below
    } catch  where error.reason != nil {
      throw AuthError(
        .configError, message: "Refusing to use authsh's state directory \(path): \(error).",
        hint: "Point XDG_STATE_HOME at a directory of your own, reached through no one else's link.")
    } catch {}
    let parent = parentDirectory(of: path)
    var info = stat()
    if !parent.isEmpty, stat(parent, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw AuthError(.configError, message: "Refusing to use \(parent) for authsh's state: it is not a directory.")
      }
      try PrivateDirectory.checkOwner(info, of: parent, what: "the state directory", rootToo: true)
      let mode = info.st_mode & 0o7777
      if mode & 0o022 != 0, mode & 0o1000 == 0 {
        throw AuthError(
          .configError,
          message:
            "Refusing to use the state directory \(parent): group or others can write to it (mode 0\(String(mode & 0o777, radix: 8))), so they could replace authsh's files.",
          hint: "Run: chmod go-w \(parent)")
      }
    }
    return try PrivateDirectory(path, what: "authsh's state directory").check(create: create)
  }
}
