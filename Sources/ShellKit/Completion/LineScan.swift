/// What the finished words of a partly typed command line say: flags given, positionals, a flag
/// still waiting for its value, and whether `--` ended the flags. Shared by completion and hints.
struct LineScan {
  var flagsGiven: Set<String> = []
  var positionals: [String] = []
  var pendingFlag: FlagSpec?
  var flagsEnded = false

  init(_ words: [String], allowed: [FlagSpec]) {
    for word in words {
      if pendingFlag != nil {
        pendingFlag = nil
        continue
      }
      if !flagsEnded, word == "--" {
        flagsEnded = true
        continue
      }
      if !flagsEnded, word.hasPrefix("--"), word.count > 2 {
        let name = Completer.flagName(word)
        flagsGiven.insert(name)
        if let flag = allowed.first(where: { $0.name == name }), flag.takesValue, !word.contains("=") {
          pendingFlag = flag
        }
        continue
      }
      positionals.append(word)
    }
  }
}
