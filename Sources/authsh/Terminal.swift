import Essentials
import ShellKit
import Synchronization

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's stdout/stderr (write errors are remembered, never trap: `StandardStreams`).
/// What goes to a terminal is laid out for it (`TerminalLayout`): marks in ASCII under a locale
/// that is not UTF-8, long lines wrapped at spaces to the window's width. A pipe or a file gets
/// the text as it is.
struct StandardSink: OutputSink {
  func write(_ text: String, to stream: ShellKit.OutputStream) {
    let descriptor: Int32 = stream == .standardOutput ? 1 : 2
    guard Terminal.isTerminal(descriptor) else { return StandardStreams.write(text, to: descriptor) }
    var shown = Terminal.unicode ? text : TerminalLayout.ascii(text)
    if let width = Terminal.width(of: descriptor) { shown = TerminalLayout.wrap(shown, width: width) }
    StandardStreams.write(shown, to: descriptor)
  }
}

enum Terminal {
  static var stdinIsTTY: Bool { isatty(0) == 1 }
  static var stdoutIsTTY: Bool { isatty(1) == 1 }
  static var stderrIsTTY: Bool { isatty(2) == 1 }

  static let standardOutputIsTerminal = isatty(1) == 1
  static let standardErrorIsTerminal = isatty(2) == 1
  static func isTerminal(_ descriptor: Int32) -> Bool {
    descriptor == 1 ? standardOutputIsTerminal : descriptor == 2 ? standardErrorIsTerminal : isatty(descriptor) == 1
  }

  /// Whether the process's locale shows UTF-8 marks (read once, from the process's environment).
  static let unicode: Bool = {
    var environment: [String: String] = [:]
    for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return TerminalLayout.unicodeLocale(environment)
  }()

  /// The columns of the terminal on `descriptor` (asked at each write: the window may be resized);
  /// nil when it is not a terminal or does not say.
  static func width(of descriptor: Int32) -> Int? {
    var size = winsize()
    guard isTerminal(descriptor), ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Colour on a terminal unless `NO_COLOR` (or `TERM=dumb`); `--color` overrides. Marks and
  /// width follow the locale and the terminal on `stream`.
  static func style(flag: String?, environment: [String: String], stream: Int32 = 1) -> Style {
    let unicode = TerminalLayout.unicodeLocale(environment)
    let width = width(of: stream)
    switch flag {
    case "always": return Style(color: true, unicode: unicode, width: width)
    case "never": return Style(color: false, unicode: unicode, width: width)
    default:
      let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
      return Style(color: !noColor && isatty(stream) == 1, unicode: unicode, width: width)
    }
  }
}

/// No-echo password prompt on the controlling terminal (termios); echo is restored even on Ctrl-C.
/// Also asks, with echo, for a value the command line left out (`authsh login` with no e-mail).
struct TerminalPasswordPrompter: PasswordPrompter {
  func readPassword(prompt: String, ifInterrupted note: String) -> String? {
    // Made before the prompt shows: the signal handler only writes it.
    let bytes = Array(((Terminal.stderrIsTTY ? "\r\u{1B}[K" : "") + "Cancelled.\n" + note + "\n").utf8)
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    _ = buffer.initialize(from: bytes)
    EchoGuard.promptMessage = buffer
    defer {
      EchoGuard.promptMessage = nil
      buffer.deallocate()
    }
    return readPassword(prompt: prompt)
  }

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

  var readsText: Bool { Terminal.stdinIsTTY }

  func readText(prompt: String) -> String? {
    StandardStreams.write(prompt, to: 2)
    guard let line = Swift.readLine(strippingNewline: true) else {
      StandardStreams.write("\n", to: 2)  // Ctrl-D: the terminal echoed no newline
      return nil
    }
    return line
  }
}

/// Ctrl-C (SIGINT) or SIGTERM in a one-shot command. At a password prompt the terminal's echo
/// comes back, "Cancelled." is printed and the process exits at once (nothing was sent). While the
/// command runs, the first signal cancels it instead, so it can print what is done (the results
/// so far, `"ok": false` in `--json`) and exit 130 or 143; a command that has not finished
/// `grace` seconds later, or a second signal, ends the process as before.
enum EchoGuard {
  /// Set before `armed` is stored (release) and read by the handler after it loads `armed` (acquire).
  nonisolated(unsafe) static var saved = termios()
  // The flags the handler reads and writes are atomics (lock-free, so safe in a signal handler),
  // as redis-cli keeps its `sig_atomic_t`.
  static let armed = Atomic<Bool>(false)
  static let cancelling = Atomic<Bool>(false)
  /// The signal that interrupted the command (0: none).
  static let received = Atomic<Int32>(0)
  /// Written by the handler to wake the thread that cancels the command.
  static let wakeDescriptor = Atomic<Int32>(-1)
  /// The signal that interrupted the command (0: none), as the command's end reads it.
  static var signalReceived: Int32 { received.load(ordering: .acquiring) }
  /// `\r ESC[K Cancelled.\n` on a terminal (over the `^C` and any spinner), else `Cancelled.\n`.
  /// Written by the handler: a buffer made once, so the handler touches no Swift object.
  nonisolated(unsafe) static var message: UnsafeMutableBufferPointer<UInt8>?
  /// What a prompt's interruption leaves behind, with "Cancelled." (`readPassword(prompt:ifInterrupted:)`).
  nonisolated(unsafe) static var promptMessage: UnsafeMutableBufferPointer<UInt8>?
  static let grace: UInt32 = 3

  /// From now until exit, SIGINT and SIGTERM cancel the command through `cancel`; a command still
  /// running `grace` seconds later is ended (a second signal ends it at once).
  static func cancelOnInterrupt(terminal: Bool, grace: UInt32 = EchoGuard.grace, cancel: @escaping @Sendable () -> Void)
  {
    let bytes = Array(((terminal ? "\r\u{1B}[K" : "") + "Cancelled.\n").utf8)
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    _ = buffer.initialize(from: bytes)
    message = buffer
    var descriptors: [Int32] = [-1, -1]
    if pipe(&descriptors) == 0 {
      wakeDescriptor.store(descriptors[1], ordering: .releasing)
      let readEnd = descriptors[0]
      startThread {
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
        cancel()
        sleep(grace)
        // Still running: the command did not stop when cancelled.
        if let message = EchoGuard.message { _ = write(2, message.baseAddress, message.count) }
        _exit(128 + EchoGuard.received.load(ordering: .acquiring))
      }
    }
    cancelling.store(true, ordering: .releasing)
    signal(SIGINT, EchoGuard.handler)
    signal(SIGTERM, EchoGuard.handler)
  }

  /// "Cancelled." on standard error (after the command stopped and printed what it had).
  static func writeMessage() {
    if let message { StandardStreams.write(String(decoding: UnsafeBufferPointer(message), as: UTF8.self), to: 2) }
  }

  static func arm(_ state: termios) {
    saved = state
    armed.store(true, ordering: .releasing)
    signal(SIGINT, EchoGuard.handler)
  }

  static func disarm() {
    armed.store(false, ordering: .releasing)
    if !cancelling.load(ordering: .acquiring) { signal(SIGINT, SIG_DFL) }
  }

  /// Only async-signal-safe calls: tcsetattr, write, _exit.
  static let handler: @convention(c) (Int32) -> Void = { signal in
    let armed = EchoGuard.armed.load(ordering: .acquiring)
    let cancelling = EchoGuard.cancelling.load(ordering: .acquiring)
    if armed { tcsetattr(0, TCSAFLUSH, &EchoGuard.saved) }
    if armed, let note = EchoGuard.promptMessage {
      _ = write(2, note.baseAddress, note.count)
      _exit(128 + signal)
    }
    let wake = EchoGuard.wakeDescriptor.load(ordering: .acquiring)
    // Only the first signal is the command's: it wakes the cancelling thread; a second one ends it.
    if cancelling, !armed, wake >= 0,
      EchoGuard.received.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged
    {
      var byte: UInt8 = 1
      _ = write(wake, &byte, 1)
      return
    }
    if cancelling, let message = EchoGuard.message { _ = write(2, message.baseAddress, message.count) }
    _exit(128 + signal)
  }
}
