import AuthCore

/// The flags of a whole run of the executable (`--profile`, `--emulator`, `--json`, …), decoded
/// by their `FlagKey`s wherever they stand: before the command word by
/// `InvocationParser.parseLeading`, after it by `InvocationParser.parse` (as the line's extra
/// flags). A flag given twice keeps its last value.
package struct RunFlags: Sendable {
  package var values: [String: [FlagValue]] = [:]

  package init() {}

  /// The flag's last value, decoded; nil when it is absent.
  package subscript<Value>(_ key: FlagKey<Value>) -> Value? { values[key.name]?.last.flatMap(key.extract) }

}

/// argv up to the command word: the run's flags, and where the command line starts.
package struct LeadingFlags: Sendable {
  package var flags = RunFlags()
  /// `-h`, `--help`.
  package var help = false
  /// `-V`, `--version`.
  package var version = false
  /// The output flags as given (`--color never`), which the command line takes as its own and
  /// decodes (the shell: `outputDefaults`).
  package var outputWords: [String] = []
  /// The command and everything after it (empty: no command, the shell).
  package var rest: [Word] = []
}

extension InvocationParser {
  /// The output flags given before no command (`… | authsh --json`), decoded as any command's
  /// for every line of the shell or piped input; a problem when they do not parse.
  package static func outputDefaults(_ words: [String]) -> Result<[String: [FlagValue]], UsageError> {
    guard !words.isEmpty else { return .success([:]) }
    let line = (["status"] + words).enumerated().map { Word(text: $1, start: $0, end: $0 + 1) }
    return parse(line, surface: .oneShot).map(\.flags)
  }

  /// The flags before the command word (`authsh --profile prod --json whoami`), read by the same
  /// reader as a command's flags, by the global flags of the table.
  package static func parseLeading(_ words: [Word]) -> Result<LeadingFlags, UsageError> {
    var leading = LeadingFlags()
    let allowed = CommandTable.connectionFlags + CommandTable.outputFlags
    var index = 0
    while index < words.count {
      let word = words[index]
      guard word.text.hasPrefix("-"), word.text != "-" else { break }
      switch word.text.split(separator: "=", maxSplits: 1).first {
      case "-h", "--help": leading.help = true
      case "-V", "--version": leading.version = true
      default:
        let start = index
        // An output flag goes to the command line as given, and is decoded there with the command
        // (its error names the command, and `--json` before it makes the error JSON).
        let output = { (flag: FlagSpec) in CommandTable.outputFlags.contains(flag) }
        switch readFlag(words, at: &index, allowed: allowed, holes: false, decodes: { !output($0) }) {
        case .read(let flag, _) where output(flag):
          leading.outputWords += words[start...index].map(\.text)
        case .read(let flag, let value):
          leading.flags.values[flag.name, default: []].append(value)
        case .unknown(let name, _):
          return .failure(
            UsageError(
              "unknown flag '\(name)'",
              suggestion: Suggest.closest(to: name, among: CommandTable.globalFlags.map(\.name))
            ))
        case .failed(var problem):
          problem.wordIndex = nil
          return .failure(problem)
        }
      }
      index += 1
    }
    leading.rest = Array(words[index...])
    return .success(leading)
  }
}
