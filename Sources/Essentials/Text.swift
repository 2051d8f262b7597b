@_spi(_Unicode) import Swift

extension StringProtocol {
  /// Every occurrence of `target` replaced by `replacement`, matched as UTF-8 bytes (so `"\n"` is
  /// found inside `"\r\n"`, as a byte-wise search would, where `replacing(_:with:)` compares
  /// whole characters and would not).
  package func replacingAll(_ target: String, with replacement: String) -> String {
    let text = Array(utf8)
    let needle = Array(target.utf8)
    guard !needle.isEmpty, needle.count <= text.count else { return String(self) }
    var out: [UInt8] = []
    out.reserveCapacity(text.count)
    var index = 0
    var found = false
    while index < text.count {
      if text[index] == needle[0], index + needle.count <= text.count,
        text[index..<index + needle.count].elementsEqual(needle)
      {
        out.append(contentsOf: replacement.utf8)
        index += needle.count
        found = true
      } else {
        out.append(text[index])
        index += 1
      }
    }
    return found ? String(decoding: out, as: UTF8.self) : String(self)
  }

  /// Without leading and trailing spaces and tabs (Unicode space separators and U+0009).
  package var trimmingSpaces: String { trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator } }

  /// Without leading and trailing white space, line breaks included (Unicode's White_Space).
  package var trimmingSpacesAndNewlines: String { trimming { $0.properties.isWhitespace } }

  /// Without the leading and trailing scalars `drop` says yes to.
  package func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) })
    else {
      return ""
    }
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: scalars[first...last])
    return String(kept)
  }

  /// Padded with spaces, or cut, to `width` characters (the left column of a table).
  package func padded(to width: Int) -> String {
    count >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - count)
  }

  /// Percent-encoded UTF-8: ASCII letters and digits and the characters of `kept` stay as they
  /// are, every other byte becomes `%XX`.
  package func percentEncoded(keeping kept: String = "") -> String {
    let keptBytes = Set(kept.utf8)
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in utf8 {
      let alphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      if alphanumeric || keptBytes.contains(byte) {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `%XX` sequences decoded; nil when one is malformed or the bytes are not UTF-8.
  package var percentDecoded: String? {
    func value(_ byte: UInt8) -> UInt8? {
      switch byte {
      case 0x30...0x39: byte - 0x30
      case 0x41...0x46: byte - 0x41 + 10
      case 0x61...0x66: byte - 0x61 + 10
      default: nil
      }
    }
    let bytes = Array(utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, let high = value(bytes[index + 1]), let low = value(bytes[index + 2]) else {
          return nil
        }
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return String(validating: out, as: UTF8.self)
  }

  /// ASCII letters compared without case, every other byte exactly (header names, schemes).
  /// Inlinable, so each caller gets it specialised: generic across a module boundary, it went
  /// through the runtime's witness tables and metadata caches byte by byte: about 2,500
  /// instructions a header name, 43,000 of a script step's 222,000.
  @inlinable
  package func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
    var mine = utf8.makeIterator()
    var theirs = other.utf8.makeIterator()
    while true {
      switch (mine.next(), theirs.next()) {
      case (nil, nil): return true
      case (let byte?, let otherByte?):
        if byte != otherByte, asciiLowercased(byte) != asciiLowercased(otherByte) { return false }
      default: return false
      }
    }
  }
}

@inlinable
func asciiLowercased(_ byte: UInt8) -> UInt8 {
  byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
}

/// The directory part of a file path: `/a/b` → `/a`, `/a` → `/`, and `b` → `` (no directory
/// part; callers then use the current directory or nothing).
package func parentDirectory(of path: String) -> String {
  var trimmed = Substring(path)
  while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
  guard let slash = trimmed.lastIndex(of: "/") else { return "" }
  var parent = trimmed[..<slash]
  while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
  return parent.isEmpty ? "/" : String(parent)
}

extension String {
  /// Unicode's canonical composition (NFC) of the text, from the standard library's own tables.
  package var composedForm: String { String(String.UnicodeScalarView(_nfc)) }

  /// Unicode's canonical decomposition (NFD) of the text.
  package var decomposedForm: String { String(String.UnicodeScalarView(_nfd)) }

  /// `lowercased()`, without making a new string when nothing changes: ASCII without a capital
  /// (most e-mail addresses) is its own lower case.
  package var lowercasedKeepingLower: String {
    var text = self
    let changes = text.withUTF8 { bytes in
      bytes.contains { $0 >= UInt8(ascii: "A") && ($0 <= UInt8(ascii: "Z") || $0 >= 0x80) }
    }
    return changes ? lowercased() : self
  }
}
