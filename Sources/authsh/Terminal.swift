import Foundation
import ShellKit

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The process's stdout/stderr (write errors are remembered, never trap: `StandardStreams`).
struct StandardSink: OutputSink {
  func write(_ text: String, to stream: ShellKit.OutputStream) {
    StandardStreams.write(text, to: stream == .standardOutput ? 1 : 2)
  }
}

enum Terminal {
  static var stdinIsTTY: Bool { isatty(0) == 1 }
  static var stdoutIsTTY: Bool { isatty(1) == 1 }
  static var stderrIsTTY: Bool { isatty(2) == 1 }

  /// Colour on a terminal unless `NO_COLOR` (or `TERM=dumb`); `--color` overrides.
  static func style(flag: String?, environment: [String: String], stream: Int32 = 1) -> Style {
    let unicode = (environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? "").uppercased().contains("UTF")
    switch flag {
    case "always": return Style(color: true, unicode: unicode)
    case "never": return Style(color: false, unicode: unicode)
    default:
      let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
      return Style(color: !noColor && isatty(stream) == 1, unicode: unicode)
    }
  }
}

/// No-echo password prompt on the controlling terminal (termios); echo is restored even on Ctrl-C.
struct TerminalPasswordPrompter: PasswordPrompter {
  func readPassword(prompt: String) -> String? {
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else {
      StandardStreams.write(prompt, to: 2)
      return Swift.readLine(strippingNewline: true)
    }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    EchoGuard.arm(saved)
    // Echo goes off (and type-ahead is dropped) before the prompt shows: what is typed after it stays.
    tcsetattr(0, TCSAFLUSH, &quiet)
    StandardStreams.write(prompt, to: 2)
    let line = Swift.readLine(strippingNewline: true)
    tcsetattr(0, TCSAFLUSH, &saved)
    EchoGuard.disarm()
    StandardStreams.write("\n", to: 2)
    return line
  }
}

/// Restores the terminal and exits 130 when Ctrl-C arrives during a no-echo prompt.
enum EchoGuard {
  nonisolated(unsafe) static var saved = termios()
  nonisolated(unsafe) static var armed = false

  static func arm(_ state: termios) {
    saved = state
    armed = true
    signal(SIGINT) { _ in
      if EchoGuard.armed { tcsetattr(0, TCSAFLUSH, &EchoGuard.saved) }
      _exit(130)
    }
  }

  static func disarm() {
    armed = false
    signal(SIGINT, SIG_DFL)
  }
}
