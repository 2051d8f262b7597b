import AuthCore
import JSONKit
import ShellKit

/// `{{…}}` in a line typed in the interactive shell, with the script engine: the same template
/// syntax, the built-in names (`uuid`, `timestamp`, `random`, `env.NAME`) and the previous
/// command's result (`inbox.link`, `user.id`). The shell has no `let`, so no other variables.
package enum LineInterpolation {
  /// The words with their holes filled, or the first hole that cannot be.
  package static func expand(
    _ words: [Word], line: String, previous: JSON?, environment: [String: String], now: @escaping () -> Int
  ) -> Result<[Word], InterpolationError> {
    let scope = Scope(variables: [:], environment: environment, previous: previous, now: now)
    let characters = Array(line)
    var expanded: [Word] = []
    for word in words {
      guard word.text.contains("{{") else {
        expanded.append(word)
        continue
      }
      let low = max(0, min(word.start, characters.count))
      let high = max(low, min(word.end, characters.count))
      let token = Token(
        text: word.text, raw: String(characters[low..<high]), quoted: word.quoted,
        range: SourceRange(line: 1, offsets: word.start, word.end))
      switch Template.parse(token) {
      case .failure(let problem):
        return .failure(hole(problem.title, note: problem.note, problem.range, word: word))
      case .success(let template):
        do {
          var filled = word
          filled.text = try scope.render(template)
          expanded.append(filled)
        } catch {
          return .failure(hole(error.title, note: hint(error.title) ?? error.note, error.range, word: word))
        }
      }
    }
    return .success(expanded)
  }

  private static func hole(_ title: String, note: String?, _ range: SourceRange, word: Word) -> InterpolationError {
    let start = range.start.column - 1
    let end = range.end.column - 1
    // A hole outside its word means the offsets are off: point at the whole word instead.
    guard start >= word.start, end <= word.end, start < end else {
      return InterpolationError(title, note: note, start: word.start, end: word.end)
    }
    return InterpolationError(title, note: note, start: start, end: end)
  }

  private static func hint(_ title: String) -> String? {
    title.hasPrefix("undefined variable")
      ? "in the shell: {{env.NAME}}, {{uuid}}, {{timestamp}}, {{random}} or the previous result ({{inbox.link}}, {{user.id}})"
      : nil
  }
}
