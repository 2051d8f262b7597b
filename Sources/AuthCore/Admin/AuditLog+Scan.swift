import Essentials
import JSONKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileAuditLog {
  /// The longest line read as an entry; a longer one is reported unreadable, never held whole.
  static let lineCap = 1 << 20

  /// Reads the log backwards 64 KiB at a time under a shared lock and hands each line to
  /// `visit`, newest first: memory stays flat whatever the log's size, and a lookup that stops
  /// at its first match reads only the end of the file.
  package func scanNewestFirst(_ visit: (AuditEntry?, Int) throws -> Bool) throws {
    let fd: Int32
    do { fd = try SafePath.open(path, flags: O_RDONLY | O_NONBLOCK, followLast: false) } catch {
      if error.code == ENOENT { return }
      if let reason = error.reason {
        throw AuthError(.auditUnavailable, message: "Refusing to use the audit log \(path): \(reason).")
      }
      throw failed("read", errno: error.code)
    }
    defer { close(fd) }
    try checkFile(fd)
    try lock(fd, LOCK_SH)
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failed("read", errno: errno) }
    let size = Int(info.st_size)
    var chunk = [UInt8](repeating: 0, count: 65_536)
    // Line numbers count from the start: one pass to count the line ends first.
    var newlines = 0
    var last: UInt8 = 0x0A
    var offset = 0
    while offset < size {
      let n = try readAt(fd, &chunk, min(chunk.count, size - offset), offset)
      if n == 0 { break }
      newlines += chunk[0..<n].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      last = chunk[n - 1]
      offset += n
    }
    var number = newlines + (size > 0 && last != 0x0A ? 1 : 0)
    var line: [UInt8] = []  // reversed
    var tooLong = false
    var skipNewline = size > 0 && last == 0x0A  // the final one ends the last line
    func emit() throws -> Bool {
      defer {
        line.removeAll(keepingCapacity: true)
        tooLong = false
        number -= 1
      }
      if line.isEmpty && !tooLong { return true }
      let text = String(decoding: line.reversed(), as: UTF8.self)
      let entry = tooLong ? nil : (try? JSON.parse(text)).flatMap(AuditEntry.init(json:))
      return try visit(entry, number)
    }
    var position = size
    while position > 0 {
      let length = min(chunk.count, position)
      let start = position - length
      let n = try readAt(fd, &chunk, length, start)
      guard n == length else { break }  // cut meanwhile: what was read is what there is
      for index in stride(from: length - 1, through: 0, by: -1) {
        let byte = chunk[index]
        if byte == 0x0A {
          if skipNewline {
            skipNewline = false
            continue
          }
          guard try emit() else { return }
        } else if line.count < Self.lineCap {
          line.append(byte)
        } else {
          tooLong = true
        }
      }
      position = start
    }
    _ = try emit()
  }

  private func readAt(_ fd: Int32, _ buffer: inout [UInt8], _ count: Int, _ offset: Int) throws -> Int {
    while true {
      let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
      if n >= 0 { return n }
      if errno != EINTR { throw failed("read", errno: errno) }
    }
  }
}
