import AuthCore

/// Matches words against the command table: command words, flags (`--x v`, `--x=v`), positionals,
/// choices. Every problem is a `UsageError` pointing at a word, with a suggestion when one is close.
package enum InvocationParser {
  package static func parse(_ words: [Word], surface: Surfaces, extraFlags: [FlagSpec] = []) -> Result<
    Invocation, UsageError
  > {
    parseLine(words, surface: surface, extraFlags: extraFlags).mapError { problem in
      var problem = problem
      problem.asksForJSON = givesJSON(words)
      return problem
    }
  }

  /// Whether `--json` stands in a line that did not parse as one of its flags, read by the flag
  /// reader with the flags of the command the line names and the global ones (all the table's when
  /// it names none): `signup --name --json` names someone `--json`; a flag the command does not
  /// take takes no value, and `version --json` asks for JSON though `version` takes no `--json`.
  static func givesJSON(_ words: [Word]) -> Bool {
    let known =
      CommandTable.match(words.map(\.text)).map { flags(of: $0.spec, surface: .all) + CommandTable.globalFlags }
      ?? CommandTable.all.flatMap(\.flags) + CommandTable.globalFlags
    var index = 0
    while index < words.count, words[index].quoted || words[index].text != "--" {
      if !words[index].quoted, words[index].text.hasPrefix("--"),
        case .read(let flag, _) = readFlag(words, at: &index, allowed: known, holes: false), flag.name == "--json"
      {
        return true
      }
      index += 1
    }
    return false
  }

  private static func parseLine(_ words: [Word], surface: Surfaces, extraFlags: [FlagSpec]) -> Result<
    Invocation, UsageError
  > {
    guard let first = words.first else { return .failure(UsageError("no command given")) }
    let texts = words.map(\.text)
    let commandWords = Array(texts.prefix { !$0.hasPrefix("-") }.prefix(2))
    for length in stride(from: commandWords.count, through: 1, by: -1) {
      let prefix = Array(commandWords.prefix(length))
      let group = CommandTable.group(prefix, on: surface)
      // `user` or `user link` alone (or followed by an unknown word): name the subcommands.
      guard !group.isEmpty, CommandTable.match(texts).map({ $0.consumed <= length && $0.spec.words != prefix }) ?? true
      else { continue }
      let next = group.map { $0.words[length...].joined(separator: " ") }
      let word = texts.count > length ? texts[length] : nil
      let message =
        word.map { "unknown subcommand '\($0)' of '\(prefix.joined(separator: " "))'" }
        ?? "'\(prefix.joined(separator: " "))' needs a subcommand"
      return .failure(
        UsageError(
          message + ": " + next.joined(separator: ", "), wordIndex: word == nil ? 0 : length,
          suggestion: word.flatMap { Suggest.closest(to: $0, among: group.map { $0.words[length] }) }))
    }
    guard let (spec, consumed) = CommandTable.match(texts) else {
      let known = CommandTable.firstWords(on: surface)
      return .failure(
        UsageError(
          "unknown command '\(first.text)'", wordIndex: 0, suggestion: Suggest.closest(to: first.text, among: known)))
    }
    guard !spec.surfaces.isDisjoint(with: surface) else {
      return .failure(UsageError(availability(of: spec, on: surface), wordIndex: 0))
    }
    let allowed = flags(of: spec, surface: surface) + extraFlags
    // Only scripts and the shell fill `{{…}}` holes; a one-shot's words are its values.
    let holes = surface != .oneShot
    var invocation = Invocation(spec: spec, words: Array(words.dropFirst(consumed)))
    var positionals: [(value: String, index: Int)] = []
    var index = consumed
    var flagsEnded = false
    while index < words.count {
      let word = words[index]
      if !flagsEnded, !word.quoted, word.text == "--" {
        flagsEnded = true
        index += 1
        continue
      }
      guard !flagsEnded, !word.quoted, word.text.hasPrefix("--"), word.text.count > 2 else {
        positionals.append((word.text, index))
        index += 1
        continue
      }
      let flag: FlagSpec
      let value: FlagValue
      switch readFlag(words, at: &index, allowed: allowed, holes: holes) {
      case .read(let read, let decoded):
        flag = read
        value = decoded
      case .unknown(let name, let given):
        if surface != .oneShot, let switching = switchInstead(name, value: given) {
          return .failure(UsageError(switching, wordIndex: index))
        }
        return .failure(unknownFlag(name, of: spec, allowed: allowed, wordIndex: index))
      case .failed(let problem): return .failure(problem)
      }
      let name = flag.name
      if invocation.flags[name] != nil, !flag.repeatable {
        return .failure(UsageError("\(name) is given twice", wordIndex: index))
      }
      // Two sources of one password: which one wins would be a guess (`--password-stdin --password x`).
      let sources = passwordFlags.map(\.spec.name)
      if sources.contains(name), let other = sources.first(where: { $0 != name && invocation.flags[$0] != nil }) {
        return .failure(UsageError("\(other) and \(name) both give the password: use one", wordIndex: index))
      }
      invocation.flags[name, default: []].append(value)
      index += 1
    }
    return assign(positionals, to: invocation, holes: holes)
  }

  /// What one flag word (with its value: `--x v`, `--x=v`) is, read by the flags `allowed`.
  enum FlagRead {
    case read(FlagSpec, FlagValue)
    /// Not one of `allowed`; `given` is the value it would have had.
    case unknown(name: String, given: String?)
    case failed(UsageError)
  }

  /// Reads the flag at `index` (a word starting with `--`), and its value when it takes one;
  /// `index` is left on the flag's last word. The one reader of flags: the command's own, and the
  /// whole run's before the command word (`parseLeading`). A value is decoded when `decodes` says
  /// so for its flag, else kept as text (decoded later with the command it goes to).
  static func readFlag(
    _ words: [Word], at index: inout Int, allowed: [FlagSpec], holes: Bool,
    decodes: (FlagSpec) -> Bool = { _ in true }
  ) -> FlagRead {
    let parts = words[index].text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    let name = String(parts[0])
    guard let flag = allowed.first(where: { $0.name == name }) else {
      let given = parts.count == 2 ? String(parts[1]) : index + 1 < words.count ? words[index + 1].text : nil
      return .unknown(name: name, given: given)
    }
    guard flag.takesValue else {
      return parts.count == 2 ? .failed(UsageError("\(name) takes no value", wordIndex: index)) : .read(flag, .on)
    }
    let text: String
    if parts.count == 2 {
      text = String(parts[1])
    } else if index + 1 < words.count {
      index += 1
      text = words[index].text
    } else {
      return .failed(UsageError("\(name) needs a value (\(flag.valueName ?? "VALUE"))", wordIndex: index))
    }
    guard decodes(flag) else { return .read(flag, .text(text)) }
    switch flag.decode(text, holes: holes) {
    case .success(let decoded): return .read(flag, decoded)
    case .failure(var problem):
      problem.wordIndex = index
      return .failed(problem)
    }
  }

  /// `--profile fb` or `--provider firebase` on a line of the shell or a script, where the
  /// connection is the session's: the command that switches it (`use fb`) instead.
  static func switchInstead(_ name: String, value: String?) -> String? {
    let value = value.flatMap { $0.isEmpty || $0.hasPrefix("-") ? nil : $0 }
    let command: String
    switch name {
    case "--profile": command = "use " + (value ?? "NAME")
    case "--provider": command = "provider " + (value ?? "supabase|firebase")
    default: return nil
    }
    return
      "\(name) does not apply to one command inside the shell: switch first with '\(command)', then run the command"
  }

  /// A flag `spec` does not take here. One that other commands take (`user create --yes`) is said
  /// to be theirs, without a look-alike suggestion (`--yes` is no typo of `--key`).
  static func unknownFlag(_ name: String, of spec: CommandSpec, allowed: [FlagSpec], wordIndex: Int) -> UsageError {
    if (flags(of: spec, surface: .all) + CommandTable.globalFlags).contains(where: { $0.name == name }) {
      return UsageError("\(name) cannot be used with '\(spec.name)' here", wordIndex: wordIndex)
    }
    let others = CommandTable.all.filter { other in other.flags.contains { $0.name == name } }.map(\.name)
    guard let first = others.first else {
      return UsageError(
        "unknown flag '\(name)' for '\(spec.name)'", wordIndex: wordIndex,
        suggestion: Suggest.closest(to: name, among: allowed.map(\.name)))
    }
    if name == "--yes" {
      // Every command that asks before it acts takes --yes; this one never asks.
      return UsageError(
        "'\(spec.name)' does not take --yes: it never asks for confirmation, so leave --yes out", wordIndex: wordIndex)
    }
    let owners = others.count > 2 ? "'\(first)' and others" : others.map { "'\($0)'" }.joined(separator: " and ")
    return UsageError("'\(spec.name)' does not take \(name) (a flag of \(owners))", wordIndex: wordIndex)
  }

  /// Flags a command accepts on a surface.
  package static func flags(of spec: CommandSpec, surface: Surfaces) -> [FlagSpec] {
    spec.flags.filter { !$0.surfaces.isDisjoint(with: surface) }
      + (spec.takesOutputFlags ? CommandTable.outputFlags : [])
  }

  private static func assign(_ positionals: [(value: String, index: Int)], to base: Invocation, holes: Bool) -> Result<
    Invocation, UsageError
  > {
    var invocation = base
    let spec = invocation.spec
    var remaining = positionals[...]
    for argument in spec.arguments {
      if argument.variadic {
        invocation.rest = remaining.map(\.value)
        if invocation.rest.isEmpty, !argument.optional {
          return .failure(UsageError("'\(spec.name)' needs \(argument.name)", wordIndex: nil))
        }
        remaining = []
        break
      }
      guard let next = remaining.popFirst() else {
        if argument.optional { continue }
        return .failure(UsageError("'\(spec.name)' needs \(argument.name)", wordIndex: nil))
      }
      switch argument.decode(next.value, command: spec.name, holes: holes) {
      case .success(let value): invocation.arguments[argument.name] = value
      case .failure(var problem):
        problem.wordIndex = next.index
        return .failure(problem)
      }
    }
    if let extra = remaining.first {
      return .failure(UsageError("unexpected argument '\(extra.value)' for '\(spec.name)'", wordIndex: extra.index))
    }
    return .success(invocation)
  }

  static func availability(of spec: CommandSpec, on surface: Surfaces) -> String {
    if spec.id == .run, surface.contains(.repl) {
      return "'run' works from your system shell (bash, zsh) as authsh run FILE…; in this shell use 'source FILE'"
    }
    if spec.surfaces == .repl { return "'\(spec.name)' works only in the interactive shell" }
    if spec.surfaces == .oneShot {
      return "'\(spec.name)' works only from your system shell (bash, zsh), as `authsh \(spec.name) …`"
    }
    if spec.surfaces == .interactive { return "'\(spec.name)' works only in the shell and in .auth scripts" }
    return "'\(spec.name)' is not available here"
  }
}
