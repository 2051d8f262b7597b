import Essentials

/// Replaces every known secret (passwords, tokens, keys, script `secret`s) with `***` in any text
/// before it reaches a terminal, a log, a report or a file. Thread-safe; secrets only accumulate.
///
/// Masking is linear in the text for each secret (see `SecretPattern`), whatever the secret's
/// length: longer secrets are masked first, each at its leftmost non-overlapping occurrences, and
/// a shorter one is masked only where no longer one was.
package final class Redactor: Sendable {
  package static let mask = "***"

  fileprivate struct Secrets: Sendable {
    var patterns: [SecretPattern] = []
    /// Registered secrets (String equality: canonically equivalent values are one secret).
    var known: Set<String> = []
    /// The byte forms masked (NFC and NFD forms differ in bytes, not as Strings).
    var forms: Set<[UInt8]> = []
    /// The last secrets asked for: scripts and sessions hand the same tokens over after every
    /// command, as the same string, which compares in O(1) where the set hashes all of it.
    var recent: [String] = []

    /// Whether `secret` is registered already; remembers it among the recent ones if so.
    mutating func knows(_ secret: String) -> Bool {
      if recent.contains(where: { $0 == secret }) { return true }
      guard known.contains(secret) else { return false }
      remember(secret)
      return true
    }

    mutating func remember(_ secret: String) {
      recent.append(secret)
      if recent.count > 4 { recent.removeFirst() }
    }
  }

  fileprivate let secrets: Guarded<Secrets>

  package init() { secrets = Guarded(Secrets()) }

  fileprivate init(_ secrets: Secrets) { self.secrets = Guarded(secrets) }

  /// Registers a secret and the forms it takes on the wire (percent- and JSON-escaped) and in
  /// either Unicode normalisation form. Very short values (under 4 characters) met in passing are
  /// not registered: masking them would shred ordinary text, and they are never printed on purpose.
  package func register(_ secret: String?) {
    register(secret, shortest: 4)
  }

  /// Registers a value the user declared secret (a script's `secret NAME = …`), whatever its
  /// length: they said so, and a three-letter secret printed in clear is still a secret printed.
  package func registerDeclared(_ secret: String?) {
    register(secret, shortest: 1)
  }

  private func register(_ secret: String?, shortest: Int) {
    guard let secret, !secret.isEmpty else { return }
    // Already known (scripts and sessions hand the same tokens over and over): skip the encodings,
    // and the character count (grapheme breaking of an 800-byte token on every step).
    if secrets.update({ $0.knows(secret) }) { return }
    guard secret.count >= shortest else { return }
    var forms = [secret, secret.composedForm, secret.decomposedForm, secret.percentEncoded()]
    forms.append(
      secret.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
        .replacingAll("/", with: "\\/"))
    let wireForms = forms
    secrets.update { secrets in
      secrets.known.insert(secret)
      secrets.remember(secret)
      for form in wireForms where secrets.forms.insert(Array(form.utf8)).inserted {
        secrets.patterns.append(SecretPattern(form, order: secrets.patterns.count))
      }
      // Longest first (registration order among equals), so a secret that contains another is masked whole.
      secrets.patterns.sort { ($0.bytes.count, $1.order) > ($1.bytes.count, $0.order) }
    }
  }

  package func redact(_ text: String) -> String {
    Self.redact(text, with: secrets[\.patterns])
  }

  package var isEmpty: Bool { secrets.update { $0.patterns.isEmpty } }

  /// Masks over the text's UTF-8 bytes. A match of valid UTF-8 inside valid UTF-8 starts and
  /// ends on scalar boundaries, so the result is valid UTF-8 again.
  static func redact(_ text: String, with patterns: [SecretPattern]) -> String {
    guard !patterns.isEmpty, !text.isEmpty else { return text }
    let bytes = Array(text.utf8)
    // Masked byte ranges so far, sorted by start and disjoint.
    var masked: [Range<Int>] = []
    for pattern in patterns where pattern.bytes.count <= bytes.count {
      var found: [Range<Int>] = []
      var lastEnd = 0
      pattern.forEachMatch(in: bytes) { range in
        guard range.lowerBound >= lastEnd, !Self.overlaps(range, masked) else { return }
        found.append(range)
        lastEnd = range.upperBound
      }
      if !found.isEmpty { masked = Self.merge(masked, found) }
    }
    guard !masked.isEmpty else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var position = 0
    for range in masked {
      out.append(contentsOf: bytes[position..<range.lowerBound])
      out.append(contentsOf: Redactor.mask.utf8)
      position = range.upperBound
    }
    out.append(contentsOf: bytes[position...])
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether `range` intersects one of the sorted, disjoint `ranges` (binary search).
  static func overlaps(_ range: Range<Int>, _ ranges: [Range<Int>]) -> Bool {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound <= range.lowerBound { low = middle + 1 } else { high = middle }
    }
    return low < ranges.count && ranges[low].lowerBound < range.upperBound
  }

  /// Two sorted lists of disjoint ranges (disjoint from each other too) as one sorted list.
  static func merge(_ left: [Range<Int>], _ right: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    result.reserveCapacity(left.count + right.count)
    var i = 0
    var j = 0
    while i < left.count || j < right.count {
      if j == right.count || (i < left.count && left[i].lowerBound < right[j].lowerBound) {
        result.append(left[i])
        i += 1
      } else {
        result.append(right[j])
        j += 1
      }
    }
    return result
  }
}

extension Redactor {
  /// A copy that no longer masks `values` (`--show-tokens` prints tokens, still masks passwords).
  package func revealing(_ values: [String]) -> Redactor {
    var kept = Secrets()
    kept.patterns = secrets[\.patterns].filter { pattern in
      !values.contains { $0.contains(pattern.text) || pattern.text.contains($0) }
    }
    kept.forms = Set(kept.patterns.map(\.bytes))
    return Redactor(kept)
  }
}

/// One secret form as bytes with its Knuth–Morris–Pratt failure table, built once at
/// registration: finding every occurrence then costs one pass over the text, never
/// text × secret on near-misses.
struct SecretPattern: Sendable {
  let text: String
  let bytes: [UInt8]
  let order: Int
  /// `failure[i]`: length of the longest proper prefix of `bytes[0...i]` that is also its suffix.
  let failure: [Int]

  init(_ text: String, order: Int) {
    self.text = text
    self.order = order
    let bytes = Array(text.utf8)
    self.bytes = bytes
    var failure = [Int](repeating: 0, count: bytes.count)
    var length = 0
    var index = 1
    while index < bytes.count {
      if bytes[index] == bytes[length] {
        length += 1
        failure[index] = length
        index += 1
      } else if length > 0 {
        length = failure[length - 1]
      } else {
        index += 1
      }
    }
    self.failure = failure
  }

  /// Calls `body` with every occurrence (overlapping ones included), in increasing order.
  func forEachMatch(in text: [UInt8], _ body: (Range<Int>) -> Void) {
    let count = bytes.count
    guard count > 0, count <= text.count else { return }
    bytes.withUnsafeBufferPointer { pattern in
      failure.withUnsafeBufferPointer { failure in
        text.withUnsafeBufferPointer { text in
          var matched = 0
          for index in 0..<text.count {
            let byte = text[index]
            while matched > 0 && pattern[matched] != byte { matched = failure[matched - 1] }
            if pattern[matched] == byte { matched += 1 }
            if matched == count {
              body((index + 1 - count)..<(index + 1))
              matched = failure[matched - 1]
            }
          }
        }
      }
    }
  }
}
