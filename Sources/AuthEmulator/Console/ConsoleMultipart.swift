import Essentials
import HTTPServerKit

/// The parts of a `multipart/form-data` body (RFC 7578) as a browser sends a form with a file: each
/// part's `name` and its bytes. Only what a form sends is read: no nested multiparts, no encodings.
enum ConsoleMultipart {
  /// The boundary of a `multipart/form-data` request; nil for any other body.
  static func boundary(_ request: ServerRequest) -> String? {
    guard let type = request.header("Content-Type"), type.lowercased().hasPrefix("multipart/form-data") else {
      return nil
    }
    for parameter in type.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmedOfBlanks }
      guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
      let value =
        pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
        ? String(pair[1].dropFirst().dropLast()) : pair[1]
      return value.isEmpty || value.utf8.count > 200 ? nil : value
    }
    return nil
  }

  /// Every part with a name, in order; nil when the body is no well-formed multipart of `boundary`.
  static func parts(_ body: [UInt8], boundary: String) -> [(name: String, bytes: [UInt8])]? {
    let delimiter = Array(("--" + boundary).utf8)
    let lineDelimiter = Array(("\r\n--" + boundary).utf8)
    guard body.starts(with: delimiter) else { return nil }
    var parts: [(name: String, bytes: [UInt8])] = []
    var position = delimiter.count
    while true {
      // After a delimiter: `--` ends the body, a line break starts a part.
      if body[position...].starts(with: Array("--".utf8)) { return parts }
      guard body[position...].starts(with: Array("\r\n".utf8)) else { return nil }
      position += 2
      guard let headEnd = find(Array("\r\n\r\n".utf8), in: body, from: position) else { return nil }
      let head = String(decoding: body[position..<headEnd], as: UTF8.self)
      let start = headEnd + 4
      guard let end = find(lineDelimiter, in: body, from: start) else { return nil }
      if let name = partName(head) { parts.append((name, Array(body[start..<end]))) }
      position = end + lineDelimiter.count
      guard position < body.count else { return nil }
    }
  }

  /// The form fields of a multipart request as text (a file's bytes decoded as UTF-8); nil when the
  /// request is not multipart or not well-formed.
  static func fields(_ request: ServerRequest) -> [(name: String, value: String)]? {
    guard let boundary = boundary(request), let parts = parts(request.body, boundary: boundary) else { return nil }
    return parts.map { ($0.name, String(decoding: $0.bytes, as: UTF8.self)) }
  }

  /// `name="…"` of a part's `Content-Disposition: form-data`.
  private static func partName(_ head: String) -> String? {
    for line in head.split(separator: "\r\n") {
      let lower = line.lowercased()
      guard lower.hasPrefix("content-disposition:"), lower.contains("form-data") else { continue }
      // Browsers send `form-data; name="…"; filename="…"`, the name first.
      for parameter in line.split(separator: ";").dropFirst() {
        let text = parameter.trimmedOfBlanks
        guard text.hasPrefix("name=\""), text.hasSuffix("\""), text.count >= 7 else { continue }
        return String(text.dropFirst(6).dropLast())
      }
      return nil
    }
    return nil
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard needle.count > 0, haystack.count >= needle.count, start <= haystack.count - needle.count else {
      return nil
    }
    var index = start
    let first = needle[0]
    while index <= haystack.count - needle.count {
      if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}

extension StringProtocol {
  /// Without the spaces and tabs at either end (a header parameter's).
  fileprivate var trimmedOfBlanks: String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(String(self).drop(while: blank).reversed().drop(while: blank).reversed())
  }
}
