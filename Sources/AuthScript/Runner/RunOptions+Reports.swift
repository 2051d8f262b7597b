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
      if isDirectory(path) == true {
        return "\(flag) \(path) is a directory; give a file name such as \(path.hasSuffix("/") ? path : path + "/")report"
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

/// Writes a report file. A regular file (or a new one) is replaced atomically; a symbolic link
/// and anything else the path names (`/dev/stdout`, a FIFO, a terminal, a device) is written
/// through, in place: never replaced by a file (as root, renaming over `/dev/full` would).
enum ReportFile {
  struct WriteError: Error { let reason: String }

  static func write(_ text: String, to path: String) throws {
    var info = stat()
    var link = stat()
    if stat(path, &info) == 0 {
      let regular = info.st_mode & S_IFMT == S_IFREG
      let symbolic = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
      if !regular || symbolic {
        try writeInPlace(Array(text.utf8), to: path, truncate: regular)
        return
      }
    }
    do {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw WriteError(reason: "check the directory's permissions and free space")
    }
  }

  private static func writeInPlace(_ bytes: [UInt8], to path: String, truncate: Bool) throws {
    let fd = open(path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0))
    guard fd >= 0 else { throw WriteError(reason: reason(errno)) }
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw WriteError(reason: reason(errno))
      }
      offset += written
    }
  }

  static func reason(_ code: Int32) -> String {
    switch code {
    case ENOSPC: return "no space left on the device"
    case EACCES, EPERM: return "permission denied"
    default: return String(cString: strerror(code)).lowercased()
    }
  }
}

/// write(2) by its module's name (a bare `write` could mean a method of the caller).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
  #else
    return Darwin.write(descriptor, bytes, count)
  #endif
}
