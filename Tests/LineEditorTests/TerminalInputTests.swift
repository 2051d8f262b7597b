import AuthCore
import Foundation
import ShellKit
import Testing

@testable import LineEditor

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
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
    let pair = try OpenTerminal()
    let terminal = pair.slave
    _ = write(pair.master, "ab", 2)
    _ = tcflush(terminal, TCIFLUSH)
    let reader = TerminalInput.reader(for: terminal)
    try #require(fcntl(reader, F_GETFL) & O_NONBLOCK != 0, "a blocking read here would hang the test")
    #expect(fcntl(terminal, F_GETFL) & O_NONBLOCK == 0, "the terminal's own flags are left alone")
    var byte: UInt8 = 0
    #expect(read(reader, &byte, 1) == -1 && errno == EAGAIN)
    pair.type(0x78)
    #expect(TerminalInput.next(fd: terminal, wake: nil) == .byte(0x78))
  }

  /// Descriptor numbers are reused once closed (tests running in parallel do it all the time):
  /// the reader follows what the number refers to now, not what it referred to when first read.
  @Test func aReusedDescriptorNumberIsReadAsWhatItIsNow() throws {
    let pipeInput = FakeInput()
    pipeInput.type("p")
    #expect(TerminalInput.next(fd: pipeInput.readEnd, wake: nil) == .byte(0x70))
    let first = try OpenTerminal()
    let second = try OpenTerminal()
    for (terminal, byte) in [(first, UInt8(0x31)), (second, UInt8(0x32))] {
      try #require(dup2(terminal.slave, pipeInput.readEnd) == pipeInput.readEnd)
      let reader = TerminalInput.reader(for: pipeInput.readEnd)
      #expect(fcntl(reader, F_GETFL) & O_NONBLOCK != 0, "a terminal is read without blocking")
      terminal.type(byte)
      var got: UInt8 = 0
      #expect(read(reader, &got, 1) == 1 && got == byte, "read from the terminal the number refers to now")
    }
  }

  @Test func innermostInterruptHandlerWins() {
    let interrupts = Interrupts()
    let log = Guarded<[String]>([])
    let outer = interrupts.push { log.update { $0.append("outer") } }
    let inner = interrupts.push { log.update { $0.append("inner") } }
    interrupts.fire()
    interrupts.pop(inner)
    interrupts.fire()
    interrupts.pop(outer)
    interrupts.fire()
    #expect(log[\.self] == ["inner", "outer"])
  }

  @Test func passwordPromptWithoutATerminalNeverWaits() {
    let input = FakeInput()
    let prompter = TerminalPasswordPrompter(interrupts: nil, input: input.readEnd, output: input.writeEnd)
    #expect(prompter.readPassword(prompt: "Password: ") == nil)
  }
}

/// A pseudo-terminal pair in raw mode; `slave` is the terminal end a program would read.
final class OpenTerminal {
  let master: Int32
  let slave: Int32
  init() throws {
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    try #require(master >= 0)
    let name = try #require(PseudoTerminal.unlockAndName(master))
    slave = open(name, O_RDWR | O_NOCTTY)
    try #require(slave >= 0)
    var raw = termios()
    _ = tcgetattr(slave, &raw)
    cfmakeraw(&raw)
    _ = tcsetattr(slave, TCSANOW, &raw)
  }
  deinit {
    close(slave)
    close(master)
  }
  func type(_ byte: UInt8) {
    var byte = byte
    _ = write(master, &byte, 1)
  }
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
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
