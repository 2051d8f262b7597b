import AuthCore
import Essentials

/// `user export --output FILE`: the records go to a new 0600 file. Without `--force` the file is
/// created with `O_CREAT | O_EXCL | O_NOFOLLOW` (nothing already there, file or link, is written
/// through); with it, a new 0600 file beside it is renamed over the old one at the end, so a
/// failed export leaves the old file as it was. An export that fails leaves no half-written file.
/// The directory is found through `SafePath` (every hop checked, links followed by hand), and the
/// file is created and renamed in it by descriptor: no second lookup by name.
final class ExportFile: Sendable {
  let path: String
  /// The directory the file is written in, and its name there.
  private let place: SafePath.Place
  /// Where the records are written, in `place`: its name, or the file renamed over it at the end.
  private let writing: String
  private let descriptor: Int32

  private init(path: String, place: SafePath.Place, writing: String, descriptor: Int32) {
    self.path = path
    self.place = place
    self.writing = writing
    self.descriptor = descriptor
  }

  static func open(_ path: String, replace: Bool) throws -> ExportFile {
    guard !path.isEmpty else { throw AuthError(.usage, message: "--output needs a file name.") }
    if isDirectory(path) == true {
      throw AuthError(.usage, message: "--output \(path) is a directory; give a file name such as \(path)/users.jsonl.")
    }
    let place: SafePath.Place
    do { place = try SafePath.parent(of: path) } catch {
      throw AuthError(.usage, message: "Cannot create \(path): \(error).")
    }
    var info = stat()
    let exists = fstatat(place.directory, place.name, &info, AT_SYMLINK_NOFOLLOW) == 0
    let kind = info.st_mode & S_IFMT
    if exists, kind != S_IFREG, kind != S_IFLNK {
      place.close()
      // --force renames over the name: a device or a FIFO (as root, /dev/full) would be replaced.
      throw AuthError(
        .usage,
        message:
          "--output \(path) is not a regular file (a device, a FIFO or a socket): leave --output out to write to standard output."
      )
    }
    if exists, !replace {
      place.close()
      let what = kind == S_IFLNK ? "is a symbolic link" : "exists already"
      throw AuthError(.usage, message: "--output \(path) \(what): add --force to replace it, or give another name.")
    }
    let writing = replace ? place.name + ".authsh-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" : place.name
    let fd = openat(place.directory, writing, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      let failure = SystemError()
      place.close()
      throw AuthError(.usage, message: "Cannot create \(path): \(failure).")
    }
    _ = fchmod(fd, 0o600)
    return ExportFile(path: path, place: place, writing: writing, descriptor: fd)
  }

  /// nil when written, else why not.
  func write(_ text: String) -> String? {
    Descriptor.writeAll(descriptor, Array(text.utf8)).failure.map { "writing \(path) failed: \(SystemError($0))" }
  }

  /// Closes the file and, after a complete export, puts it in place; otherwise removes it.
  func finish(complete: Bool) throws {
    let unsynced = fsync(descriptor) == 0 ? nil : SystemError()
    Descriptor.release(descriptor)
    defer { place.close() }
    guard complete, unsynced == nil else {
      unlinkat(place.directory, writing, 0)
      if complete, let unsynced { throw AuthError(.usage, message: "Cannot write \(path): \(unsynced).") }
      return
    }
    guard writing != place.name else { return }
    guard renameat(place.directory, writing, place.directory, place.name) == 0 else {
      let failure = SystemError()
      unlinkat(place.directory, writing, 0)
      throw AuthError(.usage, message: "Cannot replace \(path): \(failure).")
    }
  }
}
