import AuthCore
import Essentials
import Synchronization

/// A moment on the monotonic clock, by which a request must be done.
struct Deadline {
  let nanoseconds: UInt64

  init(secondsFromNow seconds: Double) {
    nanoseconds = Self.now() &+ UInt64(max(0, seconds) * 1e9)
  }

  static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Milliseconds left, rounded up (a wait never ends just short of the deadline); 0 once passed.
  var millisecondsLeft: Int32 {
    let now = Self.now()
    guard nanoseconds > now else { return 0 }
    return Int32(clamping: (nanoseconds - now + 999_999) / 1_000_000)
  }
}

/// A pipe that a cancelled task writes to, waking the `poll` its request waits in. One request
/// holds it at a time (`SocketHTTPTransport` lends them out), so a wake is always its own.
final class Waker: Sendable {
  /// The end `poll` watches, and the end written to.
  let fd: Int32
  private let writeEnd: Int32
  /// Whether `wake` was called since the last `reset`.
  private let woken = Atomic<Bool>(false)

  init?() {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFL, O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    fd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(fd)
    close(writeEnd)
  }

  func wake() {
    woken.store(true, ordering: .sequentiallyConsistent)
    var one: UInt8 = 1
    _ = write(writeEnd, &one, 1)
  }

  /// Empties the pipe after a wake, ready for the next request.
  func reset() {
    guard woken.exchange(false, ordering: .sequentiallyConsistent) else { return }
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(fd, &bytes, bytes.count) > 0 {}
  }
}

/// One TCP connection, non-blocking underneath: every wait is a `poll` bounded by the request's
/// deadline that also watches the `Waker` (a cancelled task ends the wait).
struct SocketConnection: Sendable {
  let fd: Int32
  /// When it was parked idle (monotonic nanoseconds).
  var idleSince: UInt64 = 0

  /// Connects to `host`:`port`, trying each address the name resolves to in turn (`localhost`
  /// is `::1` and `127.0.0.1`), until the deadline.
  static func open(host: String, port: Int, deadline: Deadline, waker: Waker) throws(TransportFailure)
    -> SocketConnection
  {
    var hints = addrinfo()
    hints.ai_socktype = streamSocket
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    let resolved = getaddrinfo(bare, String(port), &hints, &list)
    guard resolved == 0, let first = list else {
      let reason = String(cString: gai_strerror(resolved))
      if resolved == EAI_NONAME || resolved == EAI_AGAIN || resolved == EAI_FAIL {
        throw .hostNotFound("\(host): \(reason)")
      }
      throw .unreachable(reason)
    }
    defer { freeaddrinfo(list) }
    var lastError: Int32 = ECONNREFUSED
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let fd = socket(address.pointee.ai_family, streamSocket, 0)
      if fd < 0 {
        lastError = errno
        continue
      }
      var connection = SocketConnection(fd: fd)
      _ = fcntl(fd, F_SETFL, O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      #if !os(Linux)
        var noSignal: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
      #endif
      if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
        guard errno == EINPROGRESS else {
          lastError = errno
          connection.close()
          continue
        }
        do {
          try connection.wait(for: Int16(POLLOUT), deadline: deadline, waker: waker)
        } catch {
          connection.close()
          throw error
        }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
        if failure != 0 {
          lastError = failure
          connection.close()
          continue
        }
      }
      var on: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
      connection.idleSince = 0
      return connection
    }
    if lastError == ECONNREFUSED {
      throw .refused("connect to \(host):\(port): \(String(cString: strerror(lastError)))")
    }
    throw .unreachable(String(cString: strerror(lastError)))
  }

  mutating func close() {
    Descriptor.release(fd)
  }

  /// Whether a parked connection can carry another request: still open, and nothing arrived on
  /// it while it sat idle (an end of input, or bytes nobody asked for).
  var isQuiet: Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) == 0
  }

  /// Waits until the socket is ready for `events`, the deadline passes (`timedOut`) or the task is
  /// cancelled (`cancelled`).
  func wait(for events: Int16, deadline: Deadline, waker: Waker) throws(TransportFailure) {
    while true {
      let left = deadline.millisecondsLeft
      if left == 0 { throw .timedOut }
      var entries = (
        pollfd(fd: fd, events: events, revents: 0), pollfd(fd: waker.fd, events: Int16(POLLIN), revents: 0)
      )
      let ready = withUnsafeMutableBytes(of: &entries) { raw in
        poll(raw.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, left)
      }
      if ready < 0 {
        if errno == EINTR { continue }
        throw .other("poll: \(String(cString: strerror(errno)))")
      }
      if entries.1.revents != 0 {
        // A wake is the cancellation handler's; should the task not read as cancelled, the pipe
        // is emptied and the wait goes on.
        if Task.isCancelled { throw .cancelled }
        waker.reset()
      }
      if entries.0.revents != 0 { return }
    }
  }

  /// Sends all of `bytes`. `Closed` when the peer has gone (a reset or a broken pipe).
  func sendAll(_ bytes: [UInt8], deadline: Deadline, waker: Waker) throws(SocketError) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { raw in
        send(fd, raw.baseAddress! + offset, raw.count - offset, noSignal)
      }
      if sent >= 0 {
        offset += sent
        continue
      }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK:
        do { try wait(for: Int16(POLLOUT), deadline: deadline, waker: waker) } catch { throw .failure(error) }
      default: throw .closed(String(cString: strerror(errno)))
      }
    }
  }

  /// Appends what arrives to `buffer` (waiting for it first), read through `scratch`; false at
  /// the end of the input.
  func receive(into buffer: inout [UInt8], scratch: UnsafeMutableRawBufferPointer, deadline: Deadline, waker: Waker)
    throws(SocketError) -> Bool
  {
    do { try wait(for: Int16(POLLIN), deadline: deadline, waker: waker) } catch { throw .failure(error) }
    while true {
      let got = recv(fd, scratch.baseAddress, scratch.count, 0)
      if got > 0 {
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<got]))
        return true
      }
      if got == 0 { return false }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK:
        do { try wait(for: Int16(POLLIN), deadline: deadline, waker: waker) } catch { throw .failure(error) }
      default: throw .closed(String(cString: strerror(errno)))
      }
    }
  }
}

#if os(Linux)
  private let streamSocket = Int32(SOCK_STREAM.rawValue)
  /// A peer gone must not raise SIGPIPE (elsewhere: SO_NOSIGPIPE on the socket).
  private let noSignal = Int32(MSG_NOSIGNAL)
#else
  private let streamSocket = SOCK_STREAM
  private let noSignal: Int32 = 0
#endif

/// Why a send or a read on a connection ended early.
enum SocketError: Error {
  /// The peer closed or reset the connection.
  case closed(String)
  /// A deadline, a cancellation, or a failed wait.
  case failure(TransportFailure)
}
