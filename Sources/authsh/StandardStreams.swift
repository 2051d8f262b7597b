import AuthCore
import Essentials
import ShellKit

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard streams written with write(2): a full disk, a closed descriptor or a
/// reader that went away (`authsh … | head -1`) is an error the command reports at exit
/// (`outputFailureStatus`), never a trap. Writes to a stream that failed are dropped.
enum StandardStreams {
  private struct State {
    var failures: [Int32: Int32] = [:]
    var closedAtStart: Set<Int32> = []
  }
  private static let state = Guarded(State())

  /// Run first: a broken pipe becomes `EPIPE` from write(2) instead of a signal, and a standard
  /// descriptor closed by the caller is held by /dev/null so no socket or file opened later takes
  /// its number (output meant for the terminal would go into it); writes to it still fail.
  static func prepare() {
    signal(SIGPIPE, SIG_IGN)
    for descriptor: Int32 in [0, 1, 2] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
      if opened >= 0 && opened != descriptor {
        dup2(opened, descriptor)
        close(opened)
      }
      state.update { _ = $0.closedAtStart.insert(descriptor) }
    }
  }

  /// Whether a write to descriptor 1 or 2 has failed (the reader of a pipe went away).
  static func hasFailed(_ descriptor: Int32) -> Bool { failure(descriptor) != nil }

  /// The errno of the write to descriptor 1 or 2 that failed, if one did.
  static func failure(_ descriptor: Int32) -> Int32? {
    state.update { $0.failures[descriptor] }
  }

  /// Writes all of `text` to descriptor 1 or 2, retrying interrupted and partial writes.
  static func write(_ text: String, to descriptor: Int32) {
    let (skip, closed) = state.update { state in
      let skip = state.failures[descriptor] != nil
      let closed = state.closedAtStart.contains(descriptor)
      if closed && !skip && !text.isEmpty { state.failures[descriptor] = EBADF }
      return (skip, closed)
    }
    guard !skip, !closed, !text.isEmpty else { return }
    let failure = Descriptor.writeAll(descriptor, Array(text.utf8)).failure
    if let failure {
      state.update { $0.failures[descriptor] = failure }
    }
  }

  /// The command's status, or 74 with a message on stderr when standard output failed (no
  /// message for a closed pipe: its reader chose to stop).
  static func outputFailureStatus(_ status: Int32) -> Int32 {
    let failure = state.update { $0.failures[1] }
    guard let failure else { return status }
    if failure != EPIPE {
      write("authsh: error: cannot write to standard output: \(String(cString: strerror(failure)))\n", to: 2)
    }
    return ExitStatus.ioError
  }

  /// All of standard input, read with read(2); on failure, why, in words (Foundation's own text
  /// is "The operation could not be completed").
  static func readInput() -> Result<[UInt8], ReadFailure> {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(0, $0.baseAddress, $0.count) }
      if count > 0 {
        data += buffer[0..<count]
      } else if count == 0 {
        return .success(data)
      } else if errno != EINTR {
        let code = errno
        switch code {
        case EISDIR: return .failure(ReadFailure(reason: "it is a directory"))
        case EBADF: return .failure(ReadFailure(reason: "it is closed"))
        default: return .failure(ReadFailure(reason: String(cString: strerror(code)).lowercased()))
        }
      }
    }
  }

  struct ReadFailure: Error { let reason: String }
}

/// read(2) by its module's name: `StandardStreams` has members that hide the bare name.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.read(descriptor, bytes, count)
  #else
    return Darwin.read(descriptor, bytes, count)
  #endif
}
