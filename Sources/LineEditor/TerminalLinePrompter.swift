@preconcurrency import Glibc
import ShellKit

/// Asks for one line on the terminal with echo on ("type the e-mail to confirm"). Ctrl-C and
/// Ctrl-D cancel (nil). Without a terminal it returns nil at once, so a caller never hangs.
public final class TerminalLinePrompter: LinePrompter, @unchecked Sendable {
  private let interrupts: Interrupts?
  private let input: Int32
  private let output: Int32

  /// Reads `input` (standard input) and writes the prompt to `output` (standard error).
  public init(interrupts: Interrupts?, input: Int32 = 0, output: Int32 = 2) {
    self.interrupts = interrupts
    self.input = input
    self.output = output
  }

  public func readLine(prompt: String) -> String? {
    guard isatty(input) != 0 else { return nil }
    fflush(nil)
    guard let wake = WakePipe() else { return nil }
    let id = interrupts?.push { wake.wake() }
    defer { if let id { interrupts?.pop(id) } }
    guard !Task.isCancelled else { return nil }
    emit(prompt)
    var bytes: [UInt8] = []
    while true {
      switch TerminalInput.next(fd: input, wake: wake) {
      case .interrupted, .endOfInput:
        emit("\n")
        return nil
      case .byte(let byte):
        if byte == 10 || byte == 13 { return String(decoding: bytes, as: UTF8.self) }
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
