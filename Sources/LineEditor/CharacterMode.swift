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
