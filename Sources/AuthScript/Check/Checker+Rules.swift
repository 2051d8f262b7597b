import AuthCore
import Essentials
import ShellKit

/// Checks that need more than one statement or the shape of a value: duplicate test names and
/// comparisons whose value can never match.
extension Checker {
  /// A second `test "NAME"` in one file: reports would merge the two (JUnit, TAP).
  func duplicateTest(_ name: Template, range: SourceRange, seen: inout [String: Int]) -> Diagnostic.Partial? {
    guard let text = name.literalText?.trimmingSpaces, !text.isEmpty else { return nil }
    if let first = seen[text] {
      return .init(
        "duplicate test name \"\(text)\"", range: range, note: "the first test with this name is on line \(first)")
    }
    seen[text] = range.start.line
    return nil
  }

  /// `assert elapsed_ms > "0"`: an ordering needs a number, and a number or boolean field never
  /// equals a quoted string.
  func checkComparison(_ assertion: Assertion) -> Diagnostic.Partial? {
    guard let expected = assertion.expected, expected.quoted, case .template(let template) = expected.kind,
      let text = template.literalText
    else { return nil }
    let ordering: Set<Predicate> = [.less, .lessOrEqual, .greater, .greaterOrEqual]
    if ordering.contains(assertion.predicate) {
      return .init(
        "'\(assertion.predicate.rawValue)' compares numbers, but \"\(text)\" is a string", range: expected.range,
        note: Double(text) != nil ? "write \(text) without quotes" : "compare with a number")
    }
    guard assertion.predicate == .equal || assertion.predicate == .notEqual,
      let kind = QuerySchema.scalarKind(of: assertion.query.segments)
    else { return nil }
    return .init(
      "'\(assertion.query.text)' is a \(kind), so it never equals the string \"\(text)\"", range: expected.range,
      note: "write \(text) without quotes")
  }

  /// `asert`: an unknown first word may be a misspelt statement keyword, not only a command.
  static func keywordSuggestion(for word: String) -> String? {
    Suggest.closest(to: word, among: Parser.keywords + CommandTable.firstWords(on: .script))
  }
}

extension QuerySchema {
  /// The type of the scalar fields that are not strings.
  static let scalarKinds: [String: String] = [
    "ok": "boolean", "elapsed_ms": "number", "error.status": "number", "error.retry_after_seconds": "number",
    "user.email_confirmed": "boolean", "session.expires_in": "number", "session.expires_at": "number",
    "status.signed_in": "boolean",
  ]

  static func scalarKind(of segments: [String]) -> String? { scalarKinds[segments.joined(separator: ".")] }
}
