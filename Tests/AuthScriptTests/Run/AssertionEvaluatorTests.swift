import JSONKit
import Testing

@testable import AuthScript

@Suite struct AssertionEvaluatorTests {
  func holds(_ predicate: Predicate, _ actual: JSON?, _ expected: JSON? = nil, not negated: Bool = false) -> Bool {
    AssertionEvaluator.evaluate(predicate, negated: negated, actual: actual, expected: expected).passed
  }

  @Test func equalityIsTyped() {
    #expect(holds(.equal, "42", "42"))
    #expect(!holds(.equal, "42", 42))
    #expect(holds(.equal, 42, 42.0))
    #expect(holds(.notEqual, "a", "b"))
    #expect(holds(.equal, .null, .null))
    #expect(!holds(.equal, nil, .null), "no value is not null")
  }

  @Test func orderingOnNumbersOrStrings() {
    #expect(holds(.greater, 3600, 0))
    #expect(holds(.lessOrEqual, 1.5, 2))
    #expect(holds(.less, "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z"))
    #expect(!holds(.greater, "a", 1))
    #expect(!holds(.greater, "a", 1, not: true), "a type problem fails even under not")
  }

  @Test func stringsArraysAndObjects() {
    #expect(holds(.contains, "a@example.com", "@example"))
    #expect(holds(.contains, ["x", 1], 1))
    #expect(holds(.contains, ["code": "x"], "code"))
    #expect(holds(.startsWith, "golden-1", "golden"))
    #expect(holds(.endsWith, "a@example.com", ".com"))
    #expect(holds(.matches, "abc123", "^[a-z]+[0-9]+$"))
    #expect(!holds(.matches, "abc", "("))
    #expect(holds(.isEmpty, ""))
    #expect(holds(.isEmpty, .array([])))
    #expect(!holds(.isEmpty, .null))
  }

  /// The syntax ICU read before carries over: flags, classes, POSIX brackets, lookahead, and
  /// matching by scalar (a combining mark can be matched alone); lookbehind does not compile.
  @Test func regularExpressionsReadAsBefore() {
    #expect(holds(.matches, "Ada Lovelace 1815", "(?i)^ada\\s+\\w+ \\d{4}$"))
    #expect(holds(.matches, "Lovelace", "[[:alpha:]]+"))
    #expect(holds(.matches, "Lovelace", "Love(?=lace)"))
    #expect(!holds(.matches, "Loveless", "Love(?=lace)"))
    #expect(holds(.matches, "e\u{301}", "^e\\u0301$"))
    #expect(holds(.matches, "line one\nline two", "^line two$") == false)
    #expect(holds(.matches, "line one\nline two", "(?m)^line two$"))
    #expect(!holds(.matches, "Ada Lovelace", "(?<=Ada )Love"), "lookbehind is not supported: a failed assertion")
  }

  /// A pattern the standard library's parser would recurse through until the stack ran out, and
  /// a match that backtracks for ever: both end with a reason, neither crashes nor hangs.
  @Test func hostilePatternsEndWithAReason() throws {
    let deep = String(repeating: "[", count: 2500)
    #expect(ScriptRegex.compile(deep) == nil)
    #expect(ScriptRegex.reason(deep) == "it nests groups or classes more than 100 levels deep")
    #expect(ScriptRegex.reason("(?<=Ada )Love") == "lookbehind ((?<=…), (?<!…)) is not supported")
    #expect(ScriptRegex.compile(String(repeating: "(", count: 20) + "a" + String(repeating: ")", count: 20)) != nil)
    // `(a+)+$` against 16 a's and a `!`: about a second of backtracking, given 50 ms.
    let regex = try #require(ScriptRegex.compile("^(a+)+$"))
    #expect(ScriptRegex.matches(regex, in: String(repeating: "a", count: 16) + "!", seconds: 0.05) == nil)
    #expect(ScriptRegex.matches(regex, in: "aaaa", seconds: 5) == true)
  }

  @Test func existsAndNegation() {
    #expect(holds(.exists, "x"))
    #expect(!holds(.exists, .null))
    #expect(!holds(.exists, nil))
    #expect(holds(.exists, nil, not: true))
    #expect(holds(.exists, .null, not: true))
    #expect(!holds(.equal, nil, "x", not: true), "no value fails `not ==` too")
    #expect(holds(.equal, "y", "x", not: true))
  }

  @Test func expectationsReadLikeSentences() {
    #expect(AssertionEvaluator.describeExpectation(.greater, negated: false, expected: 0) == "greater than number <0>")
    #expect(AssertionEvaluator.describeExpectation(.equal, negated: true, expected: "x") == "not string <x>")
    #expect(AssertionEvaluator.describeExpectation(.exists, negated: false, expected: nil) == "a value")
    #expect(Values.typed(nil) == "none")
    #expect(Values.typed(1.5) == "number <1.5>")
    #expect(Values.text(2.0) == "2")
  }
}
