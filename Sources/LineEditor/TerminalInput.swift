import ShellKit
import Synchronization

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads standard input byte by byte while also watching a wake pipe, so Ctrl-C (which the
/// shell routes to the pipe) interrupts a blocked read.
enum TerminalInput {
  enum Next: Equatable {
    case byte(UInt8)
    case interrupted
    case endOfInput
  }

  static func next(fd: Int32 = 0, wake: WakePipe?) -> Next {
    while true {
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      if let wake { fds.append(pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return .endOfInput
      }
      if fds.count > 1, fds[1].revents & Int16(POLLIN) != 0 {
        wake?.drain()
        return .interrupted
      }
      guard fds[0].revents != 0 else { continue }
      var byte: UInt8 = 0
      let count = read(reader(for: fd), &byte, 1)
      if count == 1 { return .byte(byte) }
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      return .endOfInput
    }
  }

  /// Where to read `fd` from without blocking. Ctrl-C makes a terminal discard its unread input
  /// (ISIG without NOFLSH), which can empty the queue between `poll` saying "readable" and the
  /// `read`; a blocking read would then wait for a key while the wake pipe goes unwatched. So a
  /// terminal is read through a second, non-blocking open of it (the shared file description of
  /// fd 0 keeps its flags); other inputs (pipes) are read as they are.
  ///
  /// The second open is kept per terminal, checked against what `fd` is now: a descriptor
  /// number is reused once closed, and a stale entry would read another file (or block).
  static func reader(for fd: Int32) -> Int32 {
    guard isatty(fd) != 0, let identity = Identity(fd) else {
      readers.withLock { readers in
        if let stale = readers.removeValue(forKey: fd) { close(stale.fd) }
      }
      return fd
    }
    return readers.withLock { readers in
      if let known = readers[fd] {
        if known.identity == identity { return known.fd }
        close(known.fd)
        readers[fd] = nil
      }
      guard let name = ttyname(fd) else { return fd }
      let second = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
      guard second >= 0 else { return fd }
      readers[fd] = Reader(identity: identity, fd: second)
      return second
    }
  }

  /// Which file a descriptor refers to: device and inode (a terminal's are its device node's).
  struct Identity: Equatable {
    let device: UInt64
    let inode: UInt64
    let special: UInt64
    init?(_ fd: Int32) {
      var info = stat()
      guard fstat(fd, &info) == 0 else { return nil }
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      special = UInt64(info.st_rdev)
    }
  }

  private struct Reader {
    let identity: Identity
    let fd: Int32
  }

  private static let readers = Mutex<[Int32: Reader]>([:])

  /// One Unicode scalar from UTF-8 input (libedit's getc hook hands out wide characters).
  static func nextScalar(fd: Int32 = 0, wake: WakePipe?) -> Next32 {
    let first: UInt8
    switch next(fd: fd, wake: wake) {
    case .byte(let byte): first = byte
    case .interrupted: return .interrupted
    case .endOfInput: return .endOfInput
    }
    if first < 0x80 { return .scalar(UInt32(first)) }
    let extra = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0
    guard extra > 0 else { return .scalar(0xFFFD) }
    var value = UInt32(first) & (extra == 3 ? 0x07 : extra == 2 ? 0x0F : 0x1F)
    for _ in 0..<extra {
      guard case .byte(let byte) = next(fd: fd, wake: nil), byte & 0xC0 == 0x80 else { return .scalar(0xFFFD) }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    return .scalar(value)
  }

  enum Next32: Equatable {
    case scalar(UInt32)
    case interrupted
    case endOfInput
  }
}
