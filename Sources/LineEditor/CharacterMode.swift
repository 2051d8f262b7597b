#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal in character mode (no line buffering, no echo) for the time of one line.
///
/// libedit draws the prompt and only then takes the terminal out of line mode. A Ctrl-D typed as
/// soon as the prompt shows can land in that gap: the line discipline takes it for end-of-file,
/// and once the mode changes it is read as a NUL byte, so the shell went on waiting where it
/// should have ended. Switching before libedit draws closes the gap; libedit's own switch then
/// finds the terminal in character mode, and `restore()` puts back the modes found at the start.
struct CharacterMode {
  private let fd: Int32
  private let saved: termios?

  init(fd: Int32) {
    self.fd = fd
    var current = termios()
    guard tcgetattr(fd, &current) == 0, current.c_lflag & tcflag_t(ICANON) != 0 else {
      saved = nil
      return
    }
    saved = current
    var character = current
    character.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &character.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    _ = tcsetattr(fd, TCSANOW, &character)
  }

  /// Puts back the modes the terminal had before (nothing when it was not in line mode).
  func restore() {
    guard var saved else { return }
    _ = tcsetattr(fd, TCSANOW, &saved)
  }
}

extension CharacterMode {
  /// Whether a Ctrl-D typed while a command ran waits on `fd`, alone: the line discipline holds
  /// it as an end-of-file, which a read in line mode returns as zero bytes (consumed here) and
  /// one in character mode as a NUL byte, so typed ahead it was dropped. Only when nothing else
  /// waits (a typed-ahead line stays for libedit).
  static func endOfFileTypedAhead(fd: Int32) -> Bool {
    var current = termios()
    guard tcgetattr(fd, &current) == 0, current.c_lflag & tcflag_t(ICANON) != 0 else { return false }
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 0) == 1, poller.revents & Int16(POLLIN) != 0 else { return false }
    // FIONREAD counts the bytes of complete lines, not an end-of-file mark.
    var pending: Int32 = 0
    guard ioctl(fd, UInt(FIONREAD), &pending) == 0, pending == 0 else { return false }
    var byte: UInt8 = 0
    return read(fd, &byte, 1) == 0
  }
}
