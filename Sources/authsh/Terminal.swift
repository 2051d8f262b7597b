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
    StandardStreams.write(prompt, to: 2)
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return Swift.readLine(strippingNewline: true) }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    EchoGuard.arm(saved)
    tcsetattr(0, TCSAFLUSH, &quiet)
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

/// "⠋ Signing in…" on stderr while a request runs; only on a terminal, never in CI.
final class Spinner: @unchecked Sendable {
  private var task: Task<Void, Never>?

  func start(_ text: String, environment: [String: String]) {
    guard Terminal.stderrIsTTY, (environment["CI"] ?? "").isEmpty else { return }
    task = Task {
      let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
      try? await Task.sleep(nanoseconds: 150_000_000)
      var index = 0
      while !Task.isCancelled {
        StandardStreams.write("\r\(frames[index % frames.count]) \(text)", to: 2)
        index += 1
        try? await Task.sleep(nanoseconds: 80_000_000)
      }
    }
  }

  func stop() async {
    guard let task else { return }
    task.cancel()
    await task.value
    self.task = nil
    StandardStreams.write("\r\u{1B}[K", to: 2)
  }
}
