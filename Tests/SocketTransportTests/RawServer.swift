import AuthTestSupport
import Foundation
import Synchronization

/// A loopback server that answers with exactly the bytes a test gives it, for answers an HTTP
/// library would not write (chunks, a body to the end of the connection, interim 1xx heads, a
/// broken head). Each accepted connection reads one request head, writes `answer`, and closes
/// when `close` says so.
final class RawServer: Sendable {
  let port: Int
  private let fd: Int32
  private let recorder = Recorder()

  private final class Recorder: Sendable {
    let heads = Mutex<[String]>([])
  }

  init(answer: String, close: Bool = true) throws {
    let (fd, port) = try ReservedPort.boundLoopbackSocket()
    guard listen(fd, 8) == 0 else {
      Foundation.close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    self.fd = fd
    self.port = port
    let bytes = Array(answer.utf8)
    // The thread holds the socket and the recorder, not the server: it ends when the server
    // goes (deinit shuts the socket down and accept fails). Only the thread closes the socket:
    // were deinit to close it while the thread served a client, a later test's server could be
    // given the same descriptor number and this thread would accept its connections and answer
    // them with this test's bytes.
    let thread = Thread { [recorder] in
      while true {
        let client = accept(fd, nil, nil)
        if client < 0 {
          if errno == EINTR { continue }
          Foundation.close(fd)
          return
        }
        // Not inherited by the processes other tests start: one holding the connection would
        // keep an answer that runs to the end of the connection from ending.
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        Self.serve(client, bytes, close: close, recorder: recorder)
      }
    }
    thread.start()
  }

  deinit { shutdown(fd, Int32(SHUT_RDWR)) }

  /// The request heads received, in order.
  var requests: [String] { recorder.heads.withLock { $0 } }

  private static func serve(_ client: Int32, _ answer: [UInt8], close: Bool, recorder: Recorder) {
    var head: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
        guard read(client, &byte, 1) == 1 else {
          Foundation.close(client)
          return
        }
        head.append(byte)
      }
      recorder.heads.withLock { $0.append(String(decoding: head, as: UTF8.self)) }
      head = []
      _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
      if close { break }
    }
    Foundation.close(client)
  }
}
