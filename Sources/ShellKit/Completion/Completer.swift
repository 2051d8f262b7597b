import AuthCore

/// One completion: the word to insert and what it means (shown by zsh, fish and `help`).
package struct CompletionCandidate: Sendable, Equatable {
  package var value: String
  package var description: String
  /// False when more typing is expected right after it (a directory `dir/`, a `--flag=`):
  /// no space is appended.
  package var isComplete: Bool

  package init(_ value: String, _ description: String = "", isComplete: Bool = true) {
    self.value = value
    self.description = description
    self.isComplete = isComplete
  }
}

/// Completion from the command table only: command words (surface-aware), flags per command,
/// then values by kind (choices, providers, profiles, e-mails, `.auth` files, shells).
/// The REPL's Tab and the bash/zsh/fish callback share it.
package enum Completer {
  /// Candidates for `current`, the word being typed, after the complete words `before`
  /// (command words first; for the one-shot surface global flags may come first).
  package static func candidates(
    before: [String], current: String, surface: Surfaces, source: CompletionSource
  ) -> [CompletionCandidate] {
    if let holes = templateCandidates(current: current, source: source) { return holes }
    let globals = surface == .oneShot ? CommandTable.globalFlags : []
    var index = 0
    while index < before.count, before[index].hasPrefix("--"), before[index].count > 2 {
      let name = flagName(before[index])
      let flag = globals.first { $0.name == name }
      if let flag, flag.takesValue, !before[index].contains("=") {
        if index + 1 == before.count { return values(for: flag, current: current, source: source) }
        index += 2
      } else {
        index += 1
      }
    }
    let rest = Array(before[index...])
    if rest.isEmpty {
      if let typed = flagValue(current, allowed: globals, source: source) { return typed }
      if current.hasPrefix("-") { return flagCandidates(globals, seen: [], current: current, source: source) }
      return commandCandidates(surface: surface, current: current)
    }
    let onSurface = CommandTable.all.filter { !$0.surfaces.isDisjoint(with: surface) }
    let matches = onSurface.filter { $0.words.count <= rest.count && Array(rest.prefix($0.words.count)) == $0.words }
    guard let spec = matches.max(by: { $0.words.count < $1.words.count }) else {
      // A group with no command of its own (`user`, `user link`): its next words.
      return subcommandCandidates(after: rest, current: current, among: onSurface)
    }
    let args = Array(rest.dropFirst(spec.words.count))
    let allowed =
      InvocationParser.flags(of: spec, surface: surface) + (surface == .oneShot ? CommandTable.connectionFlags : [])

    let scan = LineScan(args, allowed: allowed)
    let (positionals, seen, flagsEnded) = (scan.positionals, scan.flagsGiven, scan.flagsEnded)
    if let pending = scan.pendingFlag { return values(for: pending, current: current, source: source) }
    if !flagsEnded, current.hasPrefix("-") {
      return flagValue(current, allowed: allowed, source: source)
        ?? flagCandidates(allowed, seen: seen, current: current, source: source)
    }

    var result: [CompletionCandidate] = []
    if args.isEmpty {
      // Sub-commands: `reset` → `confirm`.
      result += subcommandCandidates(after: rest, current: current, among: onSurface)
    }
    if let argument = argument(of: spec, at: positionals.count) {
      result += values(for: argument, current: current, positionals: positionals, surface: surface, source: source)
    } else if current.isEmpty, result.isEmpty, !flagsEnded {
      result += flagCandidates(allowed, seen: seen, current: current, source: source)
    }
    return result
  }

  /// Candidates for a line typed up to the cursor: where the word being completed starts
  /// (a character offset in `linePrefix`) and what may replace it.
  package static func complete(
    linePrefix: String, surface: Surfaces, source: CompletionSource
  ) -> (wordStart: Int, candidates: [CompletionCandidate]) {
    let (before, current, start) = splitForCompletion(linePrefix)
    return (start, candidates(before: before, current: current, surface: surface, source: source))
  }

  /// Complete words, the word being typed (quotes removed) and where it starts. Unterminated
  /// quotes are closed, so `login "ada@` still completes.
  package static func splitForCompletion(_ linePrefix: String) -> (before: [String], current: String, start: Int) {
    let length = linePrefix.count
    let endsInSpace = linePrefix.last.map { $0 == " " || $0 == "\t" } ?? true
    var words: [Word]?
    for closing in ["", "'", "\"", "\\", "}}"] {
      if var split = try? WordSplitter.split(linePrefix + closing) {
        // An open `{{` was closed to split the line: the word being typed ends before it.
        if closing == "}}", let last = split.last, last.text.hasSuffix("}}") {
          split[split.count - 1].text = String(last.text.dropLast(2))
        }
        words = split
        break
      }
    }
    guard var words else { return ([], "", length) }
    if linePrefix.hasSuffix("\\ ") {
      return (words.dropLast().map(\.text), words.last?.text ?? "", words.last?.start ?? length)
    }
    if endsInSpace || words.isEmpty { return (words.map(\.text), "", length) }
    let last = words.removeLast()
    return (words.map(\.text), last.text, last.start)
  }

  // MARK: Pieces

  /// `--flag=<Tab>` (or `--flag=va<Tab>`), anywhere on the line: the flag's values, each with
  /// `--flag=` before it; nil when `current` is not a `--flag=` word.
  static func flagValue(_ current: String, allowed: [FlagSpec], source: CompletionSource) -> [CompletionCandidate]? {
    guard current.hasPrefix("--"), let equals = current.firstIndex(of: "=") else { return nil }
    let name = String(current[..<equals])
    guard let flag = allowed.first(where: { $0.name == name }), flag.takesValue else { return [] }
    let typed = String(current[current.index(after: equals)...])
    return values(for: flag, current: typed, source: source).map {
      CompletionCandidate(name + "=" + $0.value, $0.description, isComplete: $0.isComplete)
    }
  }

  static func commandCandidates(surface: Surfaces, current: String) -> [CompletionCandidate] {
    CommandTable.firstWords(on: surface).filter { $0.hasPrefix(current) }.map { word in
      let summary = CommandTable.all.first { $0.words == [word] }?.summary ?? CommandTable.groupSummaries[word]
      return CompletionCandidate(word, summary ?? "\(word) commands")
    }
  }

  static func flagCandidates(
    _ flags: [FlagSpec], seen: Set<String>, current: String, source: CompletionSource
  ) -> [CompletionCandidate] {
    var names: Set<String> = []
    return flags.compactMap { flag in
      guard flag.name.hasPrefix(current), flag.repeatable || !seen.contains(flag.name), names.insert(flag.name).inserted
      else {
        return nil
      }
      return CompletionCandidate(flag.name, flag.summary)
    }
  }

  /// In a word with an open `{{` (`reset confirm {{in`), the names in scope that complete it
  /// (`{{inbox.link}}`); nil when the word has no open hole.
  static func templateCandidates(current: String, source: CompletionSource) -> [CompletionCandidate]? {
    guard let open = current.ranges(of: "{{").last, !current[open.upperBound...].contains("}}") else {
      return nil
    }
    let typed = String(current[open.upperBound...]).trimmingWhitespace
    let head = String(current[..<open.upperBound])
    return source.templateNames().filter { $0.hasPrefix(typed) }.map { CompletionCandidate(head + $0 + "}}") }
  }

  static func argument(of spec: CommandSpec, at position: Int) -> ArgumentSpec? {
    if position < spec.arguments.count { return spec.arguments[position] }
    if let last = spec.arguments.last, last.variadic { return last }
    return nil
  }

  static func flagName(_ word: String) -> String {
    word.firstIndex(of: "=").map { String(word[..<$0]) } ?? word
  }

  /// The words that can follow `rest` in longer commands (`reset` → `confirm`; `user` → `show`,
  /// `list`, `link`, …; `user link` → `recovery`, `confirm`), each once, with its summary when it
  /// ends a command.
  static func subcommandCandidates(after rest: [String], current: String, among specs: [CommandSpec])
    -> [CompletionCandidate]
  {
    var seen: Set<String> = []
    var result: [CompletionCandidate] = []
    for other in specs where other.words.count > rest.count && Array(other.words.prefix(rest.count)) == rest {
      let next = other.words[rest.count]
      guard next.hasPrefix(current), seen.insert(next).inserted else { continue }
      let ends = other.words.count == rest.count + 1
      let group = (rest + [next]).joined(separator: " ")
      let summary = ends ? other.summary : CommandTable.groupSummaries[group] ?? "\(group) commands"
      result.append(CompletionCandidate(next, summary))
    }
    return result
  }

  static func values(for flag: FlagSpec, current: String, source: CompletionSource) -> [CompletionCandidate] {
    guard let kind = flag.kind else { return [] }
    return values(kind: kind, choices: flag.choices, current: current, source: source)
  }

  static func values(
    for argument: ArgumentSpec, current: String, positionals: [String], surface: Surfaces, source: CompletionSource
  ) -> [CompletionCandidate] {
    if argument.kind == .command {
      // `help reset <Tab>` → `confirm`; `help <Tab>` → command names.
      if positionals.isEmpty { return commandCandidates(surface: surface.union(.repl), current: current) }
      return subcommandCandidates(after: positionals, current: current, among: CommandTable.all)
    }
    return values(kind: argument.kind, choices: argument.choices, current: current, source: source)
  }

  static func values(kind: ValueKind, choices: [String], current: String, source: CompletionSource)
    -> [CompletionCandidate]
  {
    if !choices.isEmpty { return choices.filter { $0.hasPrefix(current) }.map { CompletionCandidate($0) } }
    switch kind {
    case .provider:
      return ProviderKind.allCases.map(\.rawValue).filter { $0.hasPrefix(current) }.map { CompletionCandidate($0) }
    case .profile: return source.profiles().filter { $0.hasPrefix(current) }.map { CompletionCandidate($0, "profile") }
    case .email:
      let lowered = current.lowercased()
      return source.emails().filter { $0.lowercased().hasPrefix(lowered) }.map { CompletionCandidate($0) }
    case .authFile: return files(current: current, extensions: ["auth"], source: source)
    case .file, .path: return files(current: current, extensions: nil, source: source)
    case .shell: return ["bash", "zsh", "fish"].filter { $0.hasPrefix(current) }.map { CompletionCandidate($0) }
    default: return []
    }
  }

  static func files(current: String, extensions: [String]?, source: CompletionSource) -> [CompletionCandidate] {
    let directory: String
    let base: String
    if let slash = current.lastIndex(of: "/") {
      directory = String(current[...slash])
      base = String(current[current.index(after: slash)...])
    } else {
      directory = ""
      base = current
    }
    guard let entries = source.listDirectory(directory.isEmpty ? "." : directory) else { return [] }
    return entries.compactMap { entry in
      guard entry.name.hasPrefix(base) else { return nil }
      if entry.isDirectory { return CompletionCandidate(directory + entry.name + "/", isComplete: false) }
      if let extensions, !extensions.contains(where: { entry.name.hasSuffix("." + $0) }) { return nil }
      return CompletionCandidate(directory + entry.name)
    }
  }
}
