import Essentials
import ShellKit

/// Finds the secret values written literally in scripts — `secret NAME = "…"`, the value after a
/// flag the command table marks secret (`--password "…"`, `--key=…`), and a `let` value such a flag
/// reads through `{{name}}` — so they can be masked before anything is shown. Parse and check
/// errors print the offending source line long before the interpreter would register these values.
///
/// Works on raw lines, not on the parsed program, so a line that does not parse (or cannot even be
/// split into words) is still covered: then everything after a secret flag or after `secret … =` is
/// taken as the value.
package enum SecretScan {
  static var secretFlags: Set<String> { CommandTable.secretFlagNames }

  /// Every literal secret of `files`, in no particular order.
  package static func values(in files: [SourceFile]) -> [String] {
    var found: [String] = []
    var letValues: [String: [String]] = [:]
    var readsThroughVariable: [String] = []
    for file in files {
      for line in file.lines {
        scan(line, found: &found, letValues: &letValues, readsThroughVariable: &readsThroughVariable)
      }
    }
    for name in readsThroughVariable { found += letValues[name] ?? [] }
    return found.filter { !$0.isEmpty }
  }

  static func scan(
    _ line: String, found: inout [String], letValues: inout [String: [String]], readsThroughVariable: inout [String]
  ) {
    guard let words = try? WordSplitter.split(line) else {
      found += unsplittable(line)
      return
    }
    guard let first = words.first else { return }
    if !first.quoted, first.text == "secret" {
      // Whatever follows the name is the value, even on a line that does not parse (`pw="…"`).
      for (offset, word) in words.dropFirst().enumerated() where word.text != "=" {
        if let equals = word.text.firstIndex(of: "=") {
          found += literalParts(of: String(word.text[word.text.index(after: equals)...]))
        }
        if offset > 0 { found += literalParts(of: word.text) }
      }
      return
    }
    if !first.quoted, first.text == "let" {
      if words.count == 4, words[2].text == "=", !words[3].text.contains("{{") {
        letValues[words[1].text, default: []].append(words[3].text)
      }
      return
    }
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      index += 1
      guard !word.quoted else { continue }
      let name = word.text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word.text
      guard secretFlags.contains(name) else { continue }
      let value: String
      if word.text.count > name.count {
        value = String(word.text.dropFirst(name.count + 1))
      } else if index < words.endIndex {
        value = words[index].text
        index += 1
      } else {
        continue
      }
      found += literalParts(of: value)
      if let variable = soleVariable(value) { readsThroughVariable.append(variable) }
    }
  }

  /// A line with an unterminated quote: the rest of the line after a secret flag, or after `=` on
  /// a `secret` line (with and without its opening quote, and its first word alone).
  static func unsplittable(_ line: String) -> [String] {
    var tails: [Substring] = []
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    if trimmed.hasPrefix("secret"), let equals = trimmed.firstIndex(of: "=") {
      tails.append(trimmed[trimmed.index(after: equals)...])
    }
    for flag in secretFlags {
      var searchStart = line.startIndex
      while let range = line[searchStart...].firstRange(of: flag) {
        var tail = line[range.upperBound...]
        if tail.first == "=" { tail = tail.dropFirst() }
        tails.append(tail)
        searchStart = range.upperBound
      }
    }
    var values: [String] = []
    for tail in tails {
      let text = tail.trimmingSpaces
      let unquoted = text.first == "\"" || text.first == "'" ? String(text.dropFirst()) : text
      values += [text, unquoted]
      if let word = unquoted.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'" }).first {
        values.append(String(word))
      }
    }
    return values
  }

  /// The text outside `{{…}}` holes (`pre{{x}}post` → `pre`, `post`).
  static func literalParts(of text: String) -> [String] {
    var parts: [String] = []
    var rest = Substring(text)
    while let open = rest.firstRange(of: "{{") {
      parts.append(String(rest[..<open.lowerBound]))
      guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
        rest = rest[open.lowerBound...]
        break
      }
      rest = rest[close.upperBound...]
    }
    parts.append(String(rest))
    return parts.filter { !$0.isEmpty }
  }

  /// `pw` for a value that is exactly `{{pw}}`.
  static func soleVariable(_ text: String) -> String? {
    guard text.hasPrefix("{{"), text.hasSuffix("}}"), text.count > 4 else { return nil }
    let inner = text.dropFirst(2).dropLast(2).trimmingSpaces
    return inner.contains("{{") || inner.contains("}}") || inner.isEmpty ? nil : inner
  }
}
