import Essentials

/// The regular expressions of `matches`: the standard library's `Regex` (Perl-style syntax, as
/// ICU and PCRE read it), matched scalar by scalar like those engines rather than by grapheme
/// cluster, so `.` is one code point and `\\u{301}` can be found alone.
enum ScriptRegex {
  /// Deeper than any pattern a person writes. The standard library's parser recurses once a
  /// level: a pattern of 2,500 `[` ran it out of stack (a crash while the script was checked).
  static let maximumNesting = 100
  /// How long one match may take. Nested quantifiers (`(a+)+` against `aaaa…!`) backtrack
  /// exponentially, and the engine has no step limit of its own: 35 characters ran for hours.
  static let matchSeconds = 5.0

  static func compile(_ pattern: String) -> Regex<AnyRegexOutput>? {
    guard nesting(of: pattern) <= maximumNesting else { return nil }
    return (try? Regex(pattern))?.matchingSemantics(.unicodeScalar)
  }

  /// Why `pattern` does not compile, for the checker's note.
  static func reason(_ pattern: String) -> String {
    if nesting(of: pattern) > maximumNesting {
      return "it nests groups or classes more than \(maximumNesting) levels deep"
    }
    if pattern.contains("(?<=") || pattern.contains("(?<!") { return "lookbehind ((?<=…), (?<!…)) is not supported" }
    return "this pattern does not compile"
  }

  /// How deep `(` and `[` nest (escaped ones aside; a `(` inside a class counts, which only errs
  /// on the safe side).
  static func nesting(of pattern: String) -> Int {
    var depth = 0
    var deepest = 0
    var escaped = false
    for scalar in pattern.unicodeScalars {
      if escaped {
        escaped = false
        continue
      }
      switch scalar {
      case "\\": escaped = true
      case "(", "[":
        depth += 1
        deepest = max(deepest, depth)
      case ")", "]": depth = max(0, depth - 1)
      default: break
      }
    }
    return deepest
  }

  /// Whether `regex` matches somewhere in `text`; nil when the match had not ended after
  /// `seconds`. It runs on a thread of its own, which is left to finish (or to end with the
  /// process) when the time is up: the engine cannot be stopped from outside.
  static func matches(_ regex: Regex<AnyRegexOutput>, in text: String, seconds: Double = matchSeconds) -> Bool? {
    let outcome = Outcome()
    let work = UncheckedRegex(regex: regex)
    let started = startThread {
      outcome.set((try? work.regex.firstMatch(in: text)) != nil)
    }
    // No thread to spare (the system's limit): match here, without the time limit.
    guard started else { return (try? regex.firstMatch(in: text)) != nil }
    guard outcome.done.wait(timeout: .now() + seconds) == .success else { return nil }
    return outcome.value
  }

  private final class Outcome: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private(set) var value = false
    /// Written once, before `done` is signalled; read only after.
    func set(_ value: Bool) {
      self.value = value
      done.signal()
    }
  }

  /// `Regex<AnyRegexOutput>` is not `Sendable`; the compiled value is only read by the matching thread.
  private struct UncheckedRegex: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>
  }
}
