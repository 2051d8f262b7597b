import AuthCore
import Essentials

/// Reads one HTTP/1.1 answer off a connection: its head (interim 1xx heads skipped), then its
/// body, framed by `Content-Length`, by chunks, or by the end of the connection, as RFC 9112 §6.3
/// orders them. What authsh needs of an answer is its status, headers and body, and whether the
/// connection can carry the next request.
struct ResponseReader: ~Copyable {
  /// Why no answer was read.
  enum Failure: Error {
    /// Not a byte of the answer arrived before the connection closed: on a reused keep-alive
    /// connection, the server closed it while it sat idle, and the request may go again.
    case beforeAnswer(String)
    case failed(TransportFailure)

    /// A send or a read that ended early: before any answer (`answered` false) it may go again.
    init(_ error: SocketError, answered: Bool) {
      switch error {
      case .closed(let detail): self = answered ? .failed(.connectionLost(detail)) : .beforeAnswer(detail)
      case .failure(let failure): self = .failed(failure)
      }
    }
  }

  private enum Framing {
    case none, length(Int), chunked, untilClose
  }

  private struct Head {
    var status = 0
    var minorVersion = 1
    var headers: [(name: String, value: String)] = []
    var contentLength: Int?
    var chunked = false
    /// A transfer coding other than chunked last: the body runs to the connection's end.
    var otherCoding = false
    var close = false
    var keepAlive = false
  }

  static let maxHeadBytes = 64 * 1024

  let connection: SocketConnection
  let deadline: Deadline
  let waker: Waker
  let maxBytes: Int
  private let scratch: UnsafeMutableRawBufferPointer
  private var buffer: [UInt8] = []
  private var position = 0

  init(connection: SocketConnection, deadline: Deadline, waker: Waker, maxBytes: Int) {
    self.connection = connection
    self.deadline = deadline
    self.waker = waker
    self.maxBytes = maxBytes
    scratch = .allocate(byteCount: 16 * 1024, alignment: 8)
  }

  deinit { scratch.deallocate() }

  /// The answer, and whether the connection may carry another request. `isHead`: the request
  /// was a `HEAD`, whose answer has no body whatever its headers say.
  mutating func read(isHead: Bool) throws(Failure) -> (response: HTTPResponse, keepAlive: Bool) {
    var head = try readHead()
    while (100..<200).contains(head.status) { head = try readHead() }
    let framing: Framing =
      if isHead || head.status == 204 || head.status == 304 { .none } else if head.chunked {
        .chunked
      } else if head.otherCoding { .untilClose } else if let length = head.contentLength { .length(length) } else {
        .untilClose
      }
    var body: [UInt8] = []
    switch framing {
    case .none: break
    case .length(let length):
      guard length <= maxBytes else { throw .failed(.tooLarge(bytes: maxBytes)) }
      while buffer.count - position < length {
        guard try fill() else { throw lost("the connection closed in the middle of the body") }
      }
      body = Array(buffer[position..<position + length])
      position += length
    case .chunked:
      body = try readChunks()
    case .untilClose:
      repeat {
        if buffer.count - position > maxBytes { throw .failed(.tooLarge(bytes: maxBytes)) }
      } while try fill()
      body = Array(buffer[position...])
      position = buffer.count
    }
    let reusable: Bool
    if case .untilClose = framing {
      reusable = false
    } else {
      reusable = !head.close && (head.minorVersion >= 1 || head.keepAlive)
    }
    // Bytes past the answer were not asked for: the connection's framing can no longer be trusted.
    let response = HTTPResponse(status: head.status, headers: head.headers, body: body)
    return (response, reusable && position == buffer.count)
  }

  /// More bytes from the connection; false at its end.
  private mutating func fill() throws(Failure) -> Bool {
    let hadAny = !buffer.isEmpty
    // Whatever the framing (endless interim heads, header lines or trailers), no answer is read
    // past its body's cap and room for its heads.
    guard buffer.count <= maxBytes + 4 * Self.maxHeadBytes else { throw .failed(.tooLarge(bytes: maxBytes)) }
    let more: Bool
    do {
      more = try connection.receive(into: &buffer, scratch: scratch, deadline: deadline, waker: waker)
    } catch {
      throw Failure(error, answered: hadAny)
    }
    if !more, !hadAny { throw .beforeAnswer("the connection closed before a complete answer") }
    return more
  }

  private func lost(_ detail: String) -> Failure { .failed(.connectionLost(detail)) }

  /// The bytes of the line from `start` to the line feed just before `end`, without its line end
  /// (a carriage return before the feed is dropped; a bare line feed ends a line too).
  private func lineRange(from start: Int, to end: Int) -> Range<Int> {
    end - 1 > start && buffer[end - 2] == 0x0D ? start..<end - 2 : start..<end - 1
  }

  /// The index just past the line feed of the next line that starts at or after `from`.
  private func lineEnd(from start: Int) -> Int? {
    var index = start
    while index < buffer.count {
      if buffer[index] == 0x0A { return index + 1 }
      index += 1
    }
    return nil
  }

  private mutating func readHead() throws(Failure) -> Head {
    var lines: [Range<Int>] = []
    var lineStart = position
    while true {
      guard let end = lineEnd(from: lineStart) else {
        if buffer.count - position > Self.maxHeadBytes { throw lost("the answer's head is over 64 KB") }
        guard try fill() else { throw lost("the connection closed in the middle of the answer's head") }
        continue
      }
      let line = lineRange(from: lineStart, to: end)
      lineStart = end
      if lineStart - position > Self.maxHeadBytes { throw lost("the answer's head is over 64 KB") }
      if line.isEmpty {
        if lines.isEmpty { continue }  // stray line ends before a head are skipped, as clients do
        position = end
        return try parse(lines)
      }
      lines.append(line)
    }
  }

  private func parse(_ lines: [Range<Int>]) throws(Failure) -> Head {
    var head = Head()
    let status = buffer[lines[0]]
    // "HTTP/1.x NNN reason"
    guard status.count >= 12, status.starts(with: "HTTP/1.".utf8), status[status.startIndex + 8] == 0x20 else {
      throw lost("the answer does not start with an HTTP/1 status line")
    }
    let minor = status[status.startIndex + 7]
    let digits = status[(status.startIndex + 9)..<(status.startIndex + 12)]
    guard (0x30...0x39).contains(minor), digits.allSatisfy({ (0x30...0x39).contains($0) }),
      status.count == 12 || status[status.startIndex + 12] == 0x20
    else { throw lost("the answer's status line is malformed") }
    head.minorVersion = Int(minor - 0x30)
    head.status = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    for range in lines.dropFirst() {
      let line = buffer[range]
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        line[line.startIndex] != 0x20, line[line.startIndex] != 0x09
      else { throw lost("the answer has a malformed header line") }
      var valueStart = colon + 1
      var valueEnd = line.endIndex
      while valueStart < valueEnd, buffer[valueStart] == 0x20 || buffer[valueStart] == 0x09 { valueStart += 1 }
      while valueEnd > valueStart, buffer[valueEnd - 1] == 0x20 || buffer[valueEnd - 1] == 0x09 { valueEnd -= 1 }
      let name = String(decoding: buffer[line.startIndex..<colon], as: UTF8.self)
      let value = String(decoding: buffer[valueStart..<valueEnd], as: UTF8.self)
      head.headers.append((name, value))
      if name.equalsIgnoringASCIICase("content-length") {
        guard let length = Int(value), length >= 0, head.contentLength == nil || head.contentLength == length else {
          throw lost("the answer's Content-Length is not one number")
        }
        head.contentLength = length
      } else if name.equalsIgnoringASCIICase("transfer-encoding") {
        let last = value.split(separator: ",").last.map { String($0).trimmingSpaces } ?? ""
        head.chunked = last.equalsIgnoringASCIICase("chunked")
        head.otherCoding = !head.chunked
      } else if name.equalsIgnoringASCIICase("connection") {
        for token in value.split(separator: ",") {
          let option = String(token).trimmingSpaces
          if option.equalsIgnoringASCIICase("close") { head.close = true }
          if option.equalsIgnoringASCIICase("keep-alive") { head.keepAlive = true }
        }
      }
    }
    if head.chunked || head.otherCoding { head.contentLength = nil }
    return head
  }

  /// A chunked body, its chunks joined; trailer fields are read and dropped.
  private mutating func readChunks() throws(Failure) -> [UInt8] {
    var body: [UInt8] = []
    while true {
      let sizeLine = try nextLine()
      var size = 0
      var digits = 0
      for byte in buffer[sizeLine] {
        let value: Int
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
        default: value = -1
        }
        if value < 0 { break }
        guard digits < 15 else { throw .failed(.tooLarge(bytes: maxBytes)) }
        size = size * 16 + value
        digits += 1
      }
      guard digits > 0 else { throw lost("the answer has a malformed chunk size") }
      if size == 0 {
        while !(try nextLine()).isEmpty {}
        return body
      }
      guard body.count + size <= maxBytes else { throw .failed(.tooLarge(bytes: maxBytes)) }
      while buffer.count - position < size {
        guard try fill() else { throw lost("the connection closed in the middle of a chunk") }
      }
      body.append(contentsOf: buffer[position..<position + size])
      position += size
      guard (try nextLine()).isEmpty else { throw lost("a chunk runs past its size") }
    }
  }

  /// The next line's bytes (without its line end), reading more as needed.
  private mutating func nextLine() throws(Failure) -> Range<Int> {
    while true {
      if let end = lineEnd(from: position) {
        let found = lineRange(from: position, to: end)
        position = end
        return found
      }
      if buffer.count - position > Self.maxHeadBytes { throw lost("a chunk's size line is over 64 KB") }
      guard try fill() else { throw lost("the connection closed in the middle of a chunked body") }
    }
  }
}
