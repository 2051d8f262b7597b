import Essentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock` on the state file, held while a `SQLiteDocumentStore` has it open, so two
/// emulators never share one file (each would keep its own view in memory and lose the other's
/// writes at the next start). Creates the file 0600 when it does not exist yet.
///
/// The descriptor stays open until `release()`: closing any descriptor of the file would also drop
/// SQLite's own POSIX locks, so it is released only after the database is closed.
final class StateFileLock: Sendable {
  private let descriptor: Mutex<Int32>

  init(path: String) throws {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw SQLiteError("cannot open \(path): \(String(cString: strerror(errno)))")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      close(fd)
      if code == EWOULDBLOCK { throw StateFileInUseError(path: path) }
      throw SQLiteError("cannot lock \(path): \(String(cString: strerror(code)))")
    }
    descriptor = Mutex(fd)
  }

  deinit { release() }

  func release() {
    descriptor.withLock { descriptor in
      guard descriptor >= 0 else { return }
      close(descriptor)  // closing drops the flock
      descriptor = -1
    }
  }
}

/// Another process (or another store in this one) has the state file open.
package struct StateFileInUseError: Error, CustomStringConvertible, Sendable {
  package let path: String
  package var description: String {
    "the state file \(path) is in use by another emulator; stop that one first or choose another --state file"
  }
}
