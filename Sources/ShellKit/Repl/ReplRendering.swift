import AuthCore
import Essentials

/// Text the shell prints itself: usage errors with a caret under the word, the `history`
/// listing, the warning about `--password VALUE`. Typed text is shown through `TerminalText`
/// (a pasted control character shows as an escape; carets still line up).
enum ReplRendering {
  /// The one line the shell prints on a terminal before its first prompt (psql's greeting).
  static let greeting = "authsh \(AuthshVersion.current). Type \"help\" for help.\n"

  /// The command words of a line asking for help with `--help` or `-h` (unquoted, before `--`),
  /// or nil.
  static func helpRequest(_ words: [Word]) -> [String]? {
    let flags = words.prefix { $0.quoted || $0.text != "--" }
    guard flags.contains(where: { !$0.quoted && ($0.text == "--help" || $0.text == "-h") }) else { return nil }
    let commandWords = words.prefix { !$0.text.hasPrefix("-") }.map(\.text)
    guard let (spec, consumed) = CommandTable.match(commandWords) else { return nil }
    return consumed > 0 ? spec.words : nil
  }

  static func usageError(_ error: UsageError, words: [Word], line: String, style: Style) -> String {
    let safe = TerminalText.escape
    var lines = [style.red("error:") + " " + safe(HistoryPolicy.masked(error, words: words).message)]
    let showLine = !HistoryPolicy.mentionsSecret(line)
    if showLine, let index = error.wordIndex, index < words.count {
      let word = words[index]
      let chars = Array(line)
      let start = min(word.start, chars.count)
      let end = max(start, min(word.end, chars.count))
      let width = max(1, safe(String(chars[start..<end])).count)
      let note = error.suggestion.map { " did you mean '\(safe($0))'?" } ?? ""
      lines.append("  " + safe(line))
      lines.append(
        "  " + String(repeating: " ", count: safe(String(chars[0..<start])).count)
          + style.red(String(repeating: "^", count: width)) + note)
    } else if let suggestion = error.suggestion {
      lines.append("  did you mean '\(safe(suggestion))'?")
    }
    let texts = words.map(\.text)
    if let (spec, _) = CommandTable.match(texts), !spec.surfaces.isDisjoint(with: .repl) {
      lines.append("  usage: " + spec.usage(for: .repl))
    } else if error.suggestion == nil, error.wordIndex == 0 {
      lines.append("  Type 'help' to list the commands.")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func splitError(_ error: Error, line: String, style: Style) -> String {
    guard let split = error as? SplitError else { return style.red("error:") + " \(TerminalText.escape("\(error)"))\n" }
    var lines = [style.red("error:") + " " + TerminalText.escape(split.message)]
    if !HistoryPolicy.mentionsSecret(line.replacingAll("'", with: " ").replacingAll("\"", with: " ")) {
      let column = TerminalText.escape(String(Array(line).prefix(max(0, split.column)))).count
      lines.append("  " + TerminalText.escape(line))
      lines.append("  " + String(repeating: " ", count: column) + style.red("^"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func passwordWarning(style: Style) -> String {
    style.yellow("warning:")
      + " a password typed with --password shows on screen; this line stays out of the history file"
      + " (leave --password out to be asked without echo)\n"
  }

  /// `history`: numbered like bash, secrets already masked.
  static func history(_ lines: [String]) -> String {
    lines.enumerated().map { index, line in
      let number = String(index + 1)
      return String(repeating: " ", count: max(0, 5 - number.count)) + number + "  " + TerminalText.escape(line) + "\n"
    }.joined()
  }

  /// An invocation as a line again, secrets masked (for `retry`'s echo).
  static func line(of invocation: Invocation) -> String {
    let words = invocation.spec.words + invocation.words.map { WordSplitter.quote($0.text) }
    return HistoryPolicy.masked(words.joined(separator: " "))
  }
}
