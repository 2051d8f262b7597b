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
  package func prepareReportPaths(fileManager: FileManager = .default) -> String? {
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

/// Writes a report file, found through `SafePath` (every hop checked, links followed by hand). A
/// regular file (or a new one) is replaced atomically by a new 0600 file in the directory where
/// the walk ended; a FIFO, a terminal or a device (`/dev/stdout`) is written through, in place (as
/// root, renaming over `/dev/full` would replace it).
enum ReportFile {
  struct WriteError: Error { let reason: String }

  /// Why `path` is not written to as a report (nil: it may be), found before anything runs.
  static func refusal(_ path: String) -> String? {
    do {
      let place = try SafePath.locate(path)
      defer { place.close() }
      var report = stat()
      var output = stat()
      // A terminal or a pipe gets both, one after the other; a file would be emptied for the report.
      if fstatat(place.directory, place.name, &report, 0) == 0, fstat(1, &output) == 0,
        report.st_mode & S_IFMT == S_IFREG, report.st_dev == output.st_dev, report.st_ino == output.st_ino
      {
        return
          "it is the file standard output goes to, so the report would replace the console lines; give the report a file of its own"
      }
      return nil
    } catch {
      return error.reason  // a missing or misplaced directory is told apart below
    }
  }

  static func write(_ text: String, to path: String) throws {
    let place: SafePath.Place
    do { place = try SafePath.locate(path) } catch { throw WriteError(reason: reason(error)) }
    defer { place.close() }
    var link = stat()
    if fstatat(place.directory, place.name, &link, AT_SYMLINK_NOFOLLOW) == 0, link.st_mode & S_IFMT != S_IFREG {
      try writeInPlace(Array(text.utf8), to: place, path: path)
      return
    }
    try replace(place, with: Array(text.utf8))
  }

  /// A new 0600 file beside the report (`O_EXCL | O_NOFOLLOW`), renamed over it: rename(2)
  /// replaces the name and never follows what is there.
  private static func replace(_ place: SafePath.Place, with bytes: [UInt8]) throws {
    let temporary = place.name + ".authsh-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = openat(place.directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw WriteError(reason: reason(SystemError())) }
    _ = fchmod(fd, 0o600)
    let (_, failure) = Descriptor.writeAll(fd, bytes)
    close(fd)
    if let failure {
      unlinkat(place.directory, temporary, 0)
      throw WriteError(reason: reason(SystemError(failure)))
    }
    guard renameat(place.directory, temporary, place.directory, place.name) == 0 else {
      let failure = SystemError()
      unlinkat(place.directory, temporary, 0)
      throw WriteError(reason: reason(failure))
    }
  }

  private static func writeInPlace(_ bytes: [UInt8], to place: SafePath.Place, path: String) throws {
    let fd: Int32
    do { fd = try SafePath.open(place, flags: O_WRONLY | O_TRUNC, mode: 0, path: path) } catch {
      throw WriteError(reason: reason(error))
    }
    defer { close(fd) }
    if let failure = Descriptor.writeAll(fd, bytes).failure { throw WriteError(reason: reason(SystemError(failure))) }
  }

  static func reason(_ error: SystemError) -> String {
    if let reason = error.reason { return reason }
    switch error.code {
    case ENOSPC: return "no space left on the device"
    case EACCES, EPERM: return "permission denied"
    default: return error.description.lowercased()
    }
  }
}
