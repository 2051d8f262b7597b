import Foundation
import Testing

/// One `.auth` case of the sidecar corpus (hurl's integration layout):
/// `Scripts/{ok,failed,errored,parse_error}/<case>.auth` with optional sidecars beside it —
/// `.out` / `.err` (exact) or `.out.pattern` / `.err.pattern` (`~~~` matches any text on a line),
/// `.exit` (default 0), `.args` (extra `authsh run` arguments, one per line). A provider-specific
/// sidecar (`<case>.firebase.err`) wins over the shared one. A case without an `out` or an `err`
/// sidecar fails (a deleted sidecar would otherwise pass anything), and so does a case outside `ok/`
/// without its `exit`.
struct GoldenCase: Sendable, CustomTestStringConvertible {
  let folder: String
  let name: String

  var relativePath: String { "\(folder)/\(name).auth" }
  var testDescription: String { relativePath }

  static let scriptsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Scripts")
  static let providers = ["supabase", "firebase"]
  /// What a case shows: every test passed, a test failed (exit 1), a test errored because the
  /// backend failed (exit 3), the file did not parse or check (exit 2).
  static let folders = ["ok", "failed", "errored", "parse_error"]

  static func all() -> [GoldenCase] {
    var cases: [GoldenCase] = []
    for folder in folders {
      let directory = scriptsDirectory.appendingPathComponent(folder)
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".auth") }.map { String($0.dropLast(5)) }.sorted()
      cases += names.map { GoldenCase(folder: folder, name: $0) }
    }
    return cases
  }

  func sidecar(_ suffix: String) -> URL { Self.scriptsDirectory.appendingPathComponent("\(folder)/\(name).\(suffix)") }

  /// The provider's own sidecar, else the shared one.
  func read(_ suffix: String, provider: String) -> String? {
    for url in [sidecar("\(provider).\(suffix)"), sidecar(suffix)] {
      if let text = try? String(contentsOf: url, encoding: .utf8) { return text }
    }
    return nil
  }

  var extraArguments: [String] {
    (read("args", provider: "") ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
  }

  /// nil when `actual` fits the expectation of `stream` (`out` or `err`), else a description.
  /// Order: the provider's exact file, its pattern, the shared exact file, the shared pattern.
  func mismatch(_ stream: String, actual: String, provider: String) -> String? {
    for (suffix, isPattern) in [
      ("\(provider).\(stream)", false), ("\(provider).\(stream).pattern", true), (stream, false),
      ("\(stream).pattern", true),
    ] {
      guard let expected = try? String(contentsOf: sidecar(suffix), encoding: .utf8) else { continue }
      let fits = isPattern ? Self.matches(expected, actual) : expected == actual
      return fits ? nil : Self.diff(expected: expected, actual: actual, label: "\(folder)/\(name).\(suffix)")
    }
    return "\(folder)/\(name) has no .\(stream) sidecar (AUTHSH_RECORD=1 records one)"
  }

  /// The sidecars the case lacks (`out`, `err`; `exit` outside `ok/`).
  var missingSidecars: [String] {
    let needed = folder == "ok" ? ["out", "err"] : ["out", "err", "exit"]
    return needed.filter { stream in
      !GoldenCase.providers.allSatisfy { hasExpectation(stream, provider: $0) || read(stream, provider: $0) != nil }
    }
  }

  func hasExpectation(_ stream: String, provider: String) -> Bool {
    ["\(provider).\(stream)", "\(provider).\(stream).pattern", stream, "\(stream).pattern"].contains {
      FileManager.default.fileExists(atPath: sidecar($0).path)
    }
  }

  /// `~~~` matches any run of characters within a line; everything else is literal.
  static func matches(_ pattern: String, _ text: String) -> Bool {
    let parts = pattern.components(separatedBy: "~~~").map(NSRegularExpression.escapedPattern(for:))
    guard let regex = try? NSRegularExpression(pattern: "^" + parts.joined(separator: "[^\\n]*?") + "$", options: [])
    else { return false }
    return regex.firstMatch(in: text, range: NSRange(text.startIndex..<text.endIndex, in: text)) != nil
  }

  /// What to record: volatile text (durations, UUIDs) becomes `~~~`.
  static func normalize(_ text: String) -> String {
    var result = text
    let rules = [
      "\\(\\d+ ms\\)|\\(\\d+\\.\\d s\\)": "(~~~)",
      "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}": "~~~",
    ]
    for (pattern, replacement) in rules {
      result = result.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
    }
    return result
  }

  static func diff(expected: String, actual: String, label: String) -> String {
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var lines = ["\(label) differs (AUTHSH_RECORD=1 re-records):"]
    for index in 0..<max(e.count, a.count) {
      let left = index < e.count ? String(e[index]) : "<none>"
      let right = index < a.count ? String(a[index]) : "<none>"
      if left != right, !matches(left, right) { lines.append("  line \(index + 1):\n    - \(left)\n    + \(right)") }
    }
    return lines.joined(separator: "\n")
  }
}
