import Essentials
import ShellKit

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks for a password on the terminal with echo off (termios), restoring the terminal on
/// every path. Ctrl-C and Ctrl-D cancel (nil). Without a terminal it returns nil at once, so a
/// caller never hangs.
package final class TerminalPasswordPrompter: PasswordPrompter, Sendable {
  private let interrupts: Interrupts?
  private let input: Int32
  private let output: Int32

  /// Reads `input` (standard input) and writes prompts to `output` (standard error).
  package init(interrupts: Interrupts?, input: Int32 = 0, output: Int32 = 2) {
    self.interrupts = interrupts
    self.input = input
    self.output = output
  }

  package func readPassword(prompt: String) -> String? { read(prompt: prompt, echo: false) }

  /// A value the command line left out (an e-mail), echoed as typed.
  package func readText(prompt: String) -> String? { read(prompt: prompt, echo: true) }
  package var readsText: Bool { isatty(input) != 0 }

  private func read(prompt: String, echo: Bool) -> String? {
    guard isatty(input) != 0 else { return nil }
    fflush(nil)
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else { return nil }
    var quiet = saved
    if echo {
      quiet.c_lflag |= tcflag_t(ECHO | ICANON | ISIG)
    } else {
      quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
      quiet.c_lflag |= tcflag_t(ICANON | ISIG)
    }
    // Take Ctrl-C before the prompt shows, and give up if the command was cancelled already.
    guard let wake = WakePipe() else { return nil }
    let id = interrupts?.push { wake.wake() }
    defer { if let id { interrupts?.pop(id) } }
    guard !Task.isCancelled else { return nil }
    _ = tcsetattr(input, TCSAFLUSH, &quiet)
    emit(prompt)
    var entered = false
    defer {
      _ = tcsetattr(input, TCSAFLUSH, &saved)
      // With echo on, the terminal echoed the Enter already.
      if !(echo && entered) { emit("\n") }
    }
    var bytes: [UInt8] = []
    while true {
      switch TerminalInput.next(fd: input, wake: wake) {
      case .interrupted:
        return nil
      case .endOfInput:
        return nil
      case .byte(let byte):
        if byte == 10 || byte == 13 {
          entered = true
          return String(decoding: bytes, as: UTF8.self)
        }
        if byte == 4, bytes.isEmpty { return nil }
        bytes.append(byte)
      }
    }
  }

  private func emit(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
  }
}

/// Lines from standard input without line editing: piped input (no prompt) or `TERM=dumb`
/// (the prompt is printed plainly).
package final class PlainLineReader: LineReader {
  private let showPrompt: Bool

  package init(showPrompt: Bool) { self.showPrompt = showPrompt }

  package func readLine(prompt: String) -> String? {
    if showPrompt, !prompt.isEmpty {
      fflush(nil)
      _ = Descriptor.writeAll(1, Array(prompt.utf8))
    }
    return Swift.readLine(strippingNewline: true)
  }

  package func addHistory(_ line: String, persist: Bool) {}
}
