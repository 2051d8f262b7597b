/// Argument hints in the style of redis-cli: after a command word and a space, the rest of the
/// command's syntax (arguments not yet given, flags not yet used), drawn in grey by the line
/// editor. Output flags (`--json`, …) are left out to keep hints short.
package enum Hinter {
  /// The hint for a line typed up to the cursor, or nil. Only after a space: while a word is
  /// being typed, Tab completion is the help.
  package static func hint(linePrefix: String, surface: Surfaces = .repl) -> String? {
    guard let last = linePrefix.last, last == " " else { return nil }
    let (before, current, _) = Completer.splitForCompletion(linePrefix)
    guard current.isEmpty, !before.isEmpty else { return nil }
    let onSurface = CommandTable.all.filter { !$0.surfaces.isDisjoint(with: surface) }
    let matches = onSurface.filter {
      $0.words.count <= before.count && Array(before.prefix($0.words.count)) == $0.words
    }
    guard let spec = matches.max(by: { $0.words.count < $1.words.count }) else {
      // A group with no command of its own (`user `, `user link `): the words that can follow.
      let next = Completer.subcommandCandidates(after: before, current: "", among: onSurface).map(\.value)
      return next.isEmpty ? nil : next.joined(separator: "|")
    }
    let args = Array(before.dropFirst(spec.words.count))
    let flags = spec.flags.filter { !$0.surfaces.isDisjoint(with: surface) }
    let allowed = InvocationParser.flags(of: spec, surface: surface)

    let scan = LineScan(args, allowed: allowed)
    let (given, positionals) = (scan.flagsGiven, scan.positionals.count)
    if let pending = scan.pendingFlag {
      let value = pending.choices.isEmpty ? (pending.valueName ?? "VALUE") : pending.choices.joined(separator: "|")
      return value + (pending.summary.isEmpty ? "" : "  " + pending.summary)
    }
    var parts: [String] = []
    if args.isEmpty {
      let subcommands = onSurface.filter {
        $0.words.count == before.count + 1 && Array($0.words.prefix(before.count)) == before
      }
      parts += subcommands.compactMap(\.words.last).map { $0 + "…" }
    }
    for (index, argument) in spec.arguments.enumerated() where index >= positionals || argument.variadic {
      let text = argument.name + (argument.variadic ? "…" : "")
      parts.append(argument.optional || (argument.variadic && index < positionals) ? "[\(text)]" : text)
    }
    for flag in flags where flag.repeatable || !given.contains(flag.name) {
      parts.append("[" + flag.name + (flag.valueName.map { " " + $0 } ?? "") + "]")
    }
    guard !parts.isEmpty else { return nil }
    return parts.joined(separator: " ")
  }
}
