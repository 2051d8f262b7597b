import Essentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension RunOptions {
  /// Makes sure every report can be written before anything runs: missing parent directories are
  /// created (as `mkdir -p`); a path that is a directory, or whose parent cannot be made, is a
  /// problem to report (nil when every path is fine).
  public func prepareReportPaths(fileManager: FileManager = .default) -> String? {
    for (flag, path) in [("--report-junit", reportJUnit), ("--report-tap", reportTAP), ("--report-json", reportJSON)] {
      guard let path else { continue }
      guard !path.isEmpty else { return "\(flag) needs a file name" }
      if let refusal = ReportFile.refusal(path) { return "\(flag) \(path): \(refusal)" }
      if isDirectory(path) == true {
        return
          "\(flag) \(path) is a directory; give a file name such as \(path.hasSuffix("/") ? path : path + "/")report"
      }
      let parent = parentDirectory(of: path)
      guard !parent.isEmpty else { continue }
      if let directory = isDirectory(parent) {
        if !directory { return "\(flag) \(path): \(parent) is not a directory" }
        continue
      }
      do {
        try fileManager.createDirectory(atPath: parent, withIntermediateDirectories: true)
      } catch {
        return "\(flag) \(path): could not create the directory \(parent)"
      }
    }
    return nil
  }
}

/// Writes a report file. A regular file (or a new one) is replaced atomically by a new 0600 file;
/// a FIFO, a terminal or a device is written through, in place (as root, renaming over
/// `/dev/full` would replace it). A symbolic link someone else could have planted (in `/tmp`, a
/// shared folder) is refused: it would aim the report at another file. `/dev/stdout`, or a link of
/// yours in your own directory, is written through.
enum ReportFile {
  struct WriteError: Error { let reason: String }

  static let linkRefused =
    "it is a symbolic link in a directory others may write to, which authsh does not follow; give the file's own path"

  /// Why `path` is not written to as a report (nil: it may be).
  static func refusal(_ path: String) -> String? {
    Descriptor.plantable(path) ? linkRefused : nil
  }

  static func write(_ text: String, to path: String) throws {
    if let refusal = refusal(path) { throw WriteError(reason: refusal) }
    var link = stat()
    if lstat(path, &link) == 0, link.st_mode & S_IFMT != S_IFREG {
      var info = stat()
      let regular = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
      try writeInPlace(Array(text.utf8), to: path, truncate: regular, follow: link.st_mode & S_IFMT == S_IFLNK)
      return
    }
    try replace(path, with: Array(text.utf8))
  }

  /// A new 0600 file beside `path` (`O_EXCL | O_NOFOLLOW`), renamed over it: rename(2) replaces
  /// the name and never follows what is there.
  private static func replace(_ path: String, with bytes: [UInt8]) throws {
    let temporary = path + ".authsh-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd: Int32
    do {
      fd = try Descriptor.createNew(temporary, mode: 0o600)
    } catch {
      throw WriteError(reason: reason(error.code))
    }
    let (_, failure) = Descriptor.writeAll(fd, bytes)
    close(fd)
    if let failure {
      unlink(temporary)
      throw WriteError(reason: reason(failure))
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw WriteError(reason: reason(code))
    }
  }

  private static func writeInPlace(_ bytes: [UInt8], to path: String, truncate: Bool, follow: Bool) throws {
    let fd = open(path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0) | (follow ? 0 : O_NOFOLLOW))
    guard fd >= 0 else { throw WriteError(reason: reason(errno)) }
    defer { close(fd) }
    if let failure = Descriptor.writeAll(fd, bytes).failure { throw WriteError(reason: reason(failure)) }
  }

  static func reason(_ code: Int32) -> String {
    switch code {
    case ENOSPC: return "no space left on the device"
    case EACCES, EPERM: return "permission denied"
    case ELOOP: return linkRefused
    default: return String(cString: strerror(code)).lowercased()
    }
  }
}
