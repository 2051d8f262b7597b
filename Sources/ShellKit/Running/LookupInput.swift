import AuthCore
import Essentials

#if canImport(Glibc)
  import Glibc
#endif

/// Lines of text read a piece at a time (`user show --from FILE|-`): nil at the end.
package protocol InputLines: AnyObject {
  /// The next line without its line break; throws `InputLineTooLong` for a line over the cap.
  func nextLine() throws -> String?
  /// The cap on one line, in bytes (a bulk change's CSV export has longer lines than a list).
  var lineLimit: Int { get set }
}

/// A line longer than any address or id can be (`--from /dev/zero`).
package struct InputLineTooLong: Error, Equatable {
  package let line: Int
  package let limit: Int
}

/// Lines of a file descriptor, read 64 KB at a time; a line may be at most `limit` bytes, so
/// memory stays bounded whatever the input (`/dev/zero`, `yes`).
package final class DescriptorLines: InputLines {
  package static let lineLimit = 1024
  private let descriptor: Int32
  private let closeAtEnd: Bool
  private var limit: Int
  private var buffer: [UInt8] = []
  private var start = 0
  /// Where the search for the next line break goes on from.
  private var scanned = 0
  private var ended = false
  private var number = 0
  /// A stop asked for (the first Ctrl-C or SIGTERM of a batch): reading ends at once, also while
  /// waiting on a pipe that has nothing to give, with `ReadingStopped`.
  package var stop: BatchStop?

  package init(descriptor: Int32, closeAtEnd: Bool, limit: Int = DescriptorLines.lineLimit) {
    self.descriptor = descriptor
    self.closeAtEnd = closeAtEnd
    self.limit = limit
  }

  deinit { if closeAtEnd { _ = close(descriptor) } }

  package var lineLimit: Int {
    get { limit }
    set { limit = newValue }
  }

  package func nextLine() throws -> String? {
    try nextLineBytes().map { String(decoding: $0, as: UTF8.self) }
  }

  /// The next line as the file has it (no LF), for readers that check the text themselves.
  package func nextLineBytes() throws -> [UInt8]? {
    while true {
      // Only the bytes not looked at yet are searched: a long line is scanned once, not once a chunk.
      if let newline = Self.newline(in: buffer, from: max(start, scanned)) {
        let line = buffer[start..<newline]
        start = newline + 1
        scanned = start
        number += 1
        guard line.count <= limit else { throw InputLineTooLong(line: number, limit: limit) }
        return Array(line)
      }
      guard buffer.count - start <= limit else { throw InputLineTooLong(line: number + 1, limit: limit) }
      if ended {
        guard start < buffer.count else { return nil }
        let line = buffer[start...]
        start = buffer.count
        number += 1
        return Array(line)
      }
      if start > 0 {
        buffer.removeSubrange(0..<start)
        start = 0
      }
      scanned = buffer.count
      try waitReadable()
      let chunk = try Descriptor.readChunk(descriptor, upTo: 64 * 1024)
      if chunk.isEmpty { ended = true } else { buffer += chunk }
    }
  }
}

extension DescriptorLines {
  /// The position of the first newline of `bytes` at or after `from` (`memchr`: a line of an
  /// import is searched a word at a time, not a byte at a time).
  fileprivate static func newline(in bytes: [UInt8], from: Int) -> Int? {
    guard from < bytes.count else { return nil }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress,
        let found = memchr(base + from, Int32(UInt8(ascii: "\n")), buffer.count - from)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// Waits for bytes (or the end) a tenth of a second at a time, so that a stop is seen at once.
  fileprivate func waitReadable() throws {
    guard let stop else { return }
    while true {
      if stop.stopped { throw ReadingStopped() }
      var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&watched, 1, 100)
      if ready > 0 || (ready < 0 && errno != EINTR) { return }
    }
  }
}

/// A list's reading ended by a stop (the first Ctrl-C or SIGTERM) before anything was sent.
package struct ReadingStopped: Error, Equatable {}

/// Lines of a text already in memory (tests).
package final class TextLines: InputLines {
  private var lines: [Substring]
  private var index = 0
  package var lineLimit = Int.max

  package init(_ text: String) {
    lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    if lines.last == "" { lines.removeLast() }
  }

  package func nextLine() throws -> String? {
    guard index < lines.count else { return nil }
    defer { index += 1 }
    guard lines[index].utf8.count <= lineLimit else { throw InputLineTooLong(line: index + 1, limit: lineLimit) }
    return String(lines[index])
  }
}

/// The addresses and ids of `user show`: the arguments, then `--from` a line at a time (blank
/// lines and `#` comments skipped).
final class LookupInput {
  private var arguments: [String]
  private let lines: (any InputLines)?
  /// `standard input` or the path, for messages.
  let name: String
  private(set) var exhausted = false
  private(set) var count = 0
  /// The backend whose ids the lines must be (`UserReference.parse`); nil: any text.
  private let kind: ProviderKind?

  /// A usage error when an argument is no address, id or number on `kind`: nothing is sent.
  init(arguments: [String], lines: (any InputLines)?, name: String, kind: ProviderKind? = nil) throws {
    if let kind {
      let wrong = arguments.filter { UserReference.parse($0, for: kind) == nil }
      // `user show Ada Lovelace` unquoted: every word refused is one name to search for.
      if wrong.count == arguments.count, wrong.count > 1 {
        throw UserReference.refusal(wrong.joined(separator: " "), for: kind)
      }
      if let first = wrong.first { throw UserReference.refusal(first, for: kind) }
    }
    self.arguments = arguments.reversed()
    self.lines = lines
    self.name = name
    self.kind = kind
  }

  /// The next address, nil at the end; a usage error for a line no address can be.
  func next() throws -> String? {
    if let argument = arguments.popLast() {
      count += 1
      return argument
    }
    guard let lines, !exhausted else {
      exhausted = true
      return nil
    }
    do {
      while let raw = try lines.nextLine() {
        let line = raw.trimmingWhitespace
        if line.isEmpty || line.hasPrefix("#") { continue }
        count += 1
        if let kind, UserReference.parse(line, for: kind) == nil {
          exhausted = true
          var refusal = UserReference.refusal(line, for: kind)
          refusal.message = "In \(name): " + refusal.message
          throw refusal
        }
        return line
      }
    } catch let refusal as AuthError {
      throw refusal
    } catch let long as InputLineTooLong {
      exhausted = true
      throw AuthError(
        .usage, message: "Line \(long.line) of \(name) is longer than \(long.limit) bytes: it is not an address or id.")
    } catch {
      exhausted = true
      throw AuthError(.usage, message: "Cannot read \(name): \(SystemError.reason(error)).")
    }
    exhausted = true
    return nil
  }
}

extension ShellContext {
  /// `--from FILE` (`-`: standard input), opened to be read a line at a time.
  package static func openLines(_ path: String) throws -> any InputLines {
    if path == "-" { return DescriptorLines(descriptor: 0, closeAtEnd: false) }
    if isDirectory(path) == true { throw SystemError(EISDIR) }
    return DescriptorLines(descriptor: try Descriptor.openForReading(path), closeAtEnd: true)
  }
}
