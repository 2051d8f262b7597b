import Foundation
import ShellKit
import Testing

@testable import LineEditor

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A pipe standing in for the terminal.
final class FakeInput {
  let readEnd: Int32
  let writeEnd: Int32
  private var open = true
  init() {
    var fds: [Int32] = [0, 0]
    _ = pipe(&fds)
    readEnd = fds[0]
    writeEnd = fds[1]
  }
  deinit {
    close(readEnd)
    if open { close(writeEnd) }
  }
  func type(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) } }
  func type(_ text: String) { type(Array(text.utf8)) }
  func hangUp() {
    close(writeEnd)
    open = false
  }
}

@Suite("Terminal input: bytes, UTF-8, Ctrl-C wake-ups")
struct TerminalInputTests {
  @Test func asciiAndMultiByteCharactersBecomeScalars() throws {
    let input = FakeInput()
    input.type("aé€😀")
    let wake = try #require(WakePipe())
    var scalars: [UInt32] = []
    for _ in 0..<4 {
      if case .scalar(let value) = TerminalInput.nextScalar(fd: input.readEnd, wake: wake) { scalars.append(value) }
    }
    #expect(scalars == [0x61, 0xE9, 0x20AC, 0x1F600])
  }

  @Test func invalidUTF8BecomesTheReplacementCharacter() {
    let input = FakeInput()
    input.type([0xE2, 0x41])
    #expect(TerminalInput.nextScalar(fd: input.readEnd, wake: nil) == .scalar(0xFFFD))
  }

  @Test func endOfInput() {
    let input = FakeInput()
    input.hangUp()
    #expect(TerminalInput.next(fd: input.readEnd, wake: nil) == .endOfInput)
  }

  @Test func aWakeUpInterruptsABlockedRead() throws {
    let input = FakeInput()
    let wake = try #require(WakePipe())
    let interrupts = Interrupts()
    interrupts.push { wake.wake() }
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { interrupts.fire() }
    #expect(TerminalInput.next(fd: input.readEnd, wake: wake) == .interrupted)
    // The wake-up is consumed: typed input comes next.
    input.type("x")
    #expect(TerminalInput.next(fd: input.readEnd, wake: wake) == .byte(0x78))
  }

  /// Ctrl-C on a terminal discards unread input; if that happens between `poll` and `read`, the
  /// read must come back empty-handed (and the loop poll again, watching the wake pipe) instead
  /// of blocking until the next key — the shell used to hang there.
  @Test func aTerminalWhoseInputWasDiscardedIsNotReadBlocking() throws {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    try #require(master >= 0)
    defer { close(master) }
    let name = try #require(PseudoTerminal.unlockAndName(master))
    let terminal = open(name, O_RDWR | O_NOCTTY)
    try #require(terminal >= 0)
    defer { close(terminal) }
    var raw = termios()
    _ = tcgetattr(terminal, &raw)
    cfmakeraw(&raw)
    _ = tcsetattr(terminal, TCSANOW, &raw)
    _ = write(master, "ab", 2)
    _ = tcflush(terminal, TCIFLUSH)
    let reader = TerminalInput.reader(for: terminal)
    try #require(fcntl(reader, F_GETFL) & O_NONBLOCK != 0, "a blocking read here would hang the test")
    #expect(fcntl(terminal, F_GETFL) & O_NONBLOCK == 0, "the terminal's own flags are left alone")
    var byte: UInt8 = 0
    #expect(read(reader, &byte, 1) == -1 && errno == EAGAIN)
    _ = write(master, "x", 1)
    #expect(TerminalInput.next(fd: terminal, wake: nil) == .byte(0x78))
  }

  @Test func innermostInterruptHandlerWins() {
    let interrupts = Interrupts()
    let log = LockedLog()
    let outer = interrupts.push { log.add("outer") }
    let inner = interrupts.push { log.add("inner") }
    interrupts.fire()
    interrupts.pop(inner)
    interrupts.fire()
    interrupts.pop(outer)
    interrupts.fire()
    #expect(log.entries == ["inner", "outer"])
  }

  @Test func passwordPromptWithoutATerminalNeverWaits() {
    let input = FakeInput()
    let prompter = TerminalPasswordPrompter(interrupts: nil, input: input.readEnd, output: input.writeEnd)
    #expect(prompter.readPassword(prompt: "Password: ") == nil)
  }
}

final class LockedLog: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  func add(_ entry: String) { lock.withLock { stored.append(entry) } }
  var entries: [String] { lock.withLock { stored } }
}

/// `unlockpt` and `ptsname_r` are in glibc but not in Swift's Glibc module (they need
/// `_XOPEN_SOURCE`): looked up by name.
enum PseudoTerminal {
  static func unlockAndName(_ master: Int32) -> String? {
    typealias Unlock = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    guard let libc = dlopen(nil, RTLD_NOW), let unlock = dlsym(libc, "unlockpt"), let name = dlsym(libc, "ptsname_r"),
      unsafeBitCast(unlock, to: Unlock.self)(master) == 0
    else { return nil }
    var buffer = [CChar](repeating: 0, count: 128)
    guard unsafeBitCast(name, to: Name.self)(master, &buffer, buffer.count) == 0 else { return nil }
    return String(cString: buffer)
  }
}
