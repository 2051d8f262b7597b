#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that decides where keys are sent (config.toml), judged as ssh's StrictModes judges
/// `~/.ssh/config`: the file, a symbolic link to it, its target and every directory above them
/// up to `$HOME` (or `/`) must be owned by you or root and not writable by group or others. A
/// sticky directory owned by root (`/tmp`) is allowed above: no one else can replace what is in it.
package enum TrustedPath {
  package struct Problem: Sendable, Equatable {
    /// What is wrong, to follow "Refusing to use FILE: ".
    package var reason: String
    package var hint: String
    package init(reason: String, hint: String) {
      self.reason = reason
      self.hint = hint
    }
  }

  /// Why `path` cannot be trusted, or nil (also nil when it does not exist).
  package static func problem(of path: String, home: String?) -> Problem? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    if info.st_mode & S_IFMT == S_IFLNK {
      if let owner = foreignOwner(info) {
        return Problem(
          reason: "it is a symbolic link owned by \(owner), not by you or root",
          hint: "Remove the link and put your own file there: rm \(path)")
      }
      if let problem = directories(above: path, home: home) { return problem }
      guard let target = realPath(path) else { return nil }
      guard stat(target, &info) == 0 else { return nil }
      if let problem = file(info, target, "its target \(target)") { return problem }
      return directories(above: target, home: home)
    }
    if let problem = file(info, path, "it") { return problem }
    return directories(above: realPath(path) ?? path, home: home)
  }

  private static func file(_ info: stat, _ path: String, _ name: String) -> Problem? {
    if let owner = foreignOwner(info) {
      return Problem(
        reason: "\(name) is owned by \(owner), not by you or root, so they could choose where your keys are sent",
        hint: "Run: chown \(myName()) \(path) (as root), or replace it with a file of yours")
    }
    let mode = info.st_mode & 0o777
    guard mode & 0o022 == 0 else {
      let to = name == "it" ? "it" : name
      return Problem(
        reason:
          "group or others can write to \(to) (mode 0\(String(mode, radix: 8))), so they could choose where your keys are sent",
        hint: "Run: chmod go-w \(path)")
    }
    return nil
  }

  /// Each directory from `path`'s parent up to `home` (included) or `/`.
  private static func directories(above path: String, home: String?) -> Problem? {
    let stop = home.flatMap(realPath)
    var directory = parent(of: path)
    while true {
      var info = stat()
      guard stat(directory, &info) == 0 else { return nil }
      let sticky = info.st_mode & S_ISVTX != 0 && info.st_uid == 0
      if let owner = foreignOwner(info) {
        return Problem(
          reason: "the directory \(directory) is owned by \(owner), not by you or root, so they could replace the file",
          hint:
            "Keep config.toml in a directory of yours (AUTHSH_CONFIG_DIR), or run: chown \(myName()) \(directory) (as root)"
        )
      }
      let mode = info.st_mode & 0o777
      if mode & 0o022 != 0, !sticky {
        return Problem(
          reason:
            "group or others can write to the directory \(directory) (mode 0\(String(mode, radix: 8))), so they could replace the file",
          hint: "Run: chmod go-w \(directory)")
      }
      if directory == "/" || directory == stop { return nil }
      directory = parent(of: directory)
    }
  }

  private static func parent(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
  }

  private static func foreignOwner(_ info: stat) -> String? {
    guard info.st_uid != geteuid(), info.st_uid != 0 else { return nil }
    if let entry = getpwuid(info.st_uid), let name = entry.pointee.pw_name {
      return "\(String(cString: name)) (uid \(info.st_uid))"
    }
    return "uid \(info.st_uid)"
  }

  private static func myName() -> String {
    if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
    return "\(geteuid())"
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
