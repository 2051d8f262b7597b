import Essentials

/// The callback behind the bash, zsh and fish scripts: `authsh __complete <shell> <cword> -- <words…>`.
/// It reads only the command table, `config.toml` profile names and the directory being
/// completed: no network, no writes, no session refresh.
package enum ShellCompletion {
  /// Candidates for the word at index `cword` of `words` (the command line as the shell split
  /// it, the program name first). When `cword == words.count` the word being typed is empty.
  /// Each line is `value` or `value<TAB>description`; a value ending in `/` or `=` wants no
  /// trailing space. bash joins `--flag` `=` `value` before calling (COMP_WORDBREAKS).
  package static func candidates(words: [String], cword: Int, context: ShellContext) -> [String] {
    candidates(words: words, cword: cword, source: CompletionSource(context: context)).map(line)
  }

  package static func candidates(words: [String], cword: Int, source: CompletionSource) -> [CompletionCandidate] {
    guard cword >= 1 else { return [] }
    let before = Array(words.dropFirst().prefix(max(0, min(cword, words.count) - 1)))
    let current = cword < words.count ? words[cword] : ""
    return Completer.candidates(before: before, current: current, surface: .oneShot, source: source)
  }

  /// The output of `authsh __complete`, one candidate per line, for the argument list after
  /// `__complete` (`<shell> <cword> -- <words…>`); nil when the arguments are malformed.
  package static func output(arguments: [String], context: ShellContext) -> String? {
    guard arguments.count >= 3, CompletionScripts.shells.contains(arguments[0]), let cword = Int(arguments[1]),
      arguments[2] == "--"
    else { return nil }
    let lines = candidates(words: Array(arguments.dropFirst(3)), cword: cword, context: context)
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  static func line(_ candidate: CompletionCandidate) -> String {
    let description = candidate.description.replacingAll("\t", with: " ")
      .replacingAll("\n", with: " ")
    return description.isEmpty ? candidate.value : candidate.value + "\t" + description
  }
}
