import AuthCore
import Essentials

/// `user export --output FILE`: the records go to a new 0600 file. Without `--force` the file is
/// created with `O_CREAT | O_EXCL | O_NOFOLLOW` (nothing already there, file or link, is written
/// through); with it, a new 0600 file beside it is renamed over the old one at the end, so a
/// failed export leaves the old file as it was. An export that fails leaves no half-written file.
final class ExportFile: Sendable {
  let path: String
  /// Where the records are written: `path` itself, or the file renamed over it at the end.
  private let writing: String
  private let descriptor: Int32

  private init(path: String, writing: String, descriptor: Int32) {
    self.path = path
    self.writing = writing
    self.descriptor = descriptor
  }

  static func open(_ path: String, replace: Bool) throws -> ExportFile {
    guard !path.isEmpty else { throw AuthError(.usage, message: "--output needs a file name.") }
    if isDirectory(path) == true {
      throw AuthError(.usage, message: "--output \(path) is a directory; give a file name such as \(path)/users.jsonl.")
    }
    var info = stat()
    let exists = lstat(path, &info) == 0
    let kind = info.st_mode & S_IFMT
    if exists, kind != S_IFREG, kind != S_IFLNK {
      // --force renames over the name: a device or a FIFO (as root, /dev/full) would be replaced.
      throw AuthError(
        .usage,
        message:
          "--output \(path) is not a regular file (a device, a FIFO or a socket): leave --output out to write to standard output."
      )
    }
    if exists, !replace {
      let what = kind == S_IFLNK ? "is a symbolic link" : "exists already"
      throw AuthError(.usage, message: "--output \(path) \(what): add --force to replace it, or give another name.")
    }
    let writing = replace ? path + ".authsh-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" : path
    do {
      return ExportFile(path: path, writing: writing, descriptor: try Descriptor.createNew(writing, mode: 0o600))
    } catch {
      throw AuthError(.usage, message: "Cannot create \(path): \(error).")
    }
  }

  /// nil when written, else why not.
  func write(_ text: String) -> String? {
    Descriptor.writeAll(descriptor, Array(text.utf8)).failure.map { "writing \(path) failed: \(SystemError($0))" }
  }

  /// Closes the file and, after a complete export, puts it in place; otherwise removes it.
  func finish(complete: Bool) throws {
    let unsynced = fsync(descriptor) == 0 ? nil : SystemError()
    Descriptor.release(descriptor)
    guard complete, unsynced == nil else {
      unlink(writing)
      if complete, let unsynced { throw AuthError(.usage, message: "Cannot write \(path): \(unsynced).") }
      return
    }
    guard writing != path else { return }
    guard rename(writing, path) == 0 else {
      let failure = SystemError()
      unlink(writing)
      throw AuthError(.usage, message: "Cannot replace \(path): \(failure).")
    }
  }
}
