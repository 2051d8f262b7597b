/// The regular expressions of `matches`: the standard library's `Regex` (Perl-style syntax, as
/// ICU and PCRE read it), matched scalar by scalar like those engines rather than by grapheme
/// cluster, so `.` is one code point and `\\u{301}` can be found alone.
enum ScriptRegex {
  static func compile(_ pattern: String) -> Regex<AnyRegexOutput>? {
    (try? Regex(pattern))?.matchingSemantics(.unicodeScalar)
  }
}
