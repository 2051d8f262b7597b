/// Splits Firebase's `{"users":[{…},{…}]}` into the bytes of each element of `users` as the text
/// arrives, whatever its layout (one account a line as firebase-tools writes it, or all on one):
/// it follows strings and nesting, keeps only the element being read (at most `elementLimit`
/// bytes), and skips every other key of the top object.
struct FirebaseUsersSplitter {
  static let elementLimit = 1 << 20

  private enum State { case beforeTop, inTop, inUsers, done }
  private var state = State.beforeTop
  private var depth = 0
  private var inString = false
  private var escaped = false
  /// The last string seen at depth 1 (a key when a `:` follows).
  private var key: [UInt8] = []
  private var readingKey = false
  private var usersKey = false
  private var element: [UInt8]?
  private var ready: [[UInt8]] = []
  private var readyIndex = 0
  private var sawUsers = false
  /// How many elements of `users` have begun (names the one that is not an object).
  private var elements = 0
  private var line = 0

  mutating func nextElement() -> [UInt8]? {
    guard readyIndex < ready.count else {
      ready.removeAll(keepingCapacity: true)
      readyIndex = 0
      return nil
    }
    defer { readyIndex += 1 }
    return ready[readyIndex]
  }

  mutating func feed(_ bytes: [UInt8], line: Int) throws {
    self.line = line
    for byte in bytes { try take(byte) }
    try take(0x0A)
  }

  /// The end of the text: an unfinished object or no `users` list is not an export.
  func finish() throws {
    guard sawUsers else { throw PortableAccountError("the JSON has no \"users\" list of accounts") }
    guard state == .done else {
      throw PortableAccountError("the JSON ends before the \"users\" list is closed (line \(line))")
    }
  }

  private mutating func take(_ byte: UInt8) throws {
    if element != nil {
      element!.append(byte)
      guard element!.count <= Self.elementLimit else {
        throw PortableAccountError("line \(line): an account over \(Self.elementLimit >> 20) MB")
      }
    }
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      } else if readingKey {
        key.append(byte)
      }
      return
    }
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0D: return
    case UInt8(ascii: "\""):
      inString = true
      readingKey = depth == 1 && state == .inTop
      if readingKey { key.removeAll(keepingCapacity: true) }
    case UInt8(ascii: ":"):
      if depth == 1, state == .inTop { usersKey = key == Array("users".utf8) }
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      if state == .beforeTop {
        guard byte == UInt8(ascii: "{") else { throw PortableAccountError("the JSON is not an object") }
        state = .inTop
      } else if state == .inTop, depth == 1, usersKey {
        guard byte == UInt8(ascii: "[") else { throw PortableAccountError("\"users\" is not a list of accounts") }
        state = .inUsers
        sawUsers = true
      } else if state == .inUsers, depth == 2 {
        guard byte == UInt8(ascii: "{") else {
          throw PortableAccountError("users[\(elements)] (line \(line)) is not an object")
        }
        elements += 1
        element = [byte]
      }
      depth += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      depth -= 1
      if state == .inUsers, depth == 2, let done = element {
        ready.append(done)
        element = nil
      } else if state == .inUsers, depth == 1 {
        state = .inTop
        usersKey = false
      } else if depth == 0 {
        state = .done
      }
    case UInt8(ascii: ","):
      if depth == 1 { usersKey = false }
    default:
      if state == .beforeTop { throw PortableAccountError("the JSON is not an object") }
      if state == .inUsers, depth == 2 {
        throw PortableAccountError("users[\(elements)] (line \(line)) is not an object")
      }
    }
  }
}
