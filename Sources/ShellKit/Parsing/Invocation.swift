/// A command line matched against the table: which command, its arguments and flags.
package struct Invocation: Sendable, Equatable {
  package var spec: CommandSpec
  /// Positional values by argument name (`EMAIL`), decoded by the argument's kind when the line
  /// was parsed (read them typed: `invocation[.user]`); a variadic argument's words are in `rest`.
  package var arguments: [String: FlagValue]
  /// All values of a variadic argument.
  package var rest: [String]
  /// Flag values by flag name, decoded by the flag's kind when the line was parsed.
  package var flags: [String: [FlagValue]]
  /// The words as given (after the command words), for history and `retry`.
  package var words: [Word]

  package init(
    spec: CommandSpec, arguments: [String: FlagValue] = [:], rest: [String] = [], flags: [String: [FlagValue]] = [:],
    words: [Word] = []
  ) {
    self.spec = spec
    self.arguments = arguments
    self.rest = rest
    self.flags = flags
    self.words = words
  }

  package var id: CommandID { spec.id }

  /// What this invocation does to the account: the row's access, raised by flags that do more
  /// (`user update --claims` grants roles).
  package var access: AccountAccess {
    spec.flags.reduce(spec.access) { access, flag in
      guard let raised = flag.access, flags[flag.name] != nil else { return access }
      return max(access, raised)
    }
  }

  /// Whether a request of this command, once sent, may have changed something on the server (an
  /// account made, a password changed, a mail sent, a factor removed): what a cancelled one must
  /// say, since trying again may then fail (`user_already_exists`) or do it twice.
  package var mayChangeTheServer: Bool {
    access >= .change || spec.changesOwnAccount
  }

  /// Whether this line actually carries a secret value (a `--password VALUE`, `--key KEY`, …).
  package var carriesSecret: Bool {
    spec.flags.contains { $0.isSecret && flags[$0.name] != nil }
      || spec.arguments.contains { $0.isSecret && arguments[$0.name] != nil }
      || CommandTable.globalFlags.contains { $0.isSecret && flags[$0.name] != nil }
  }
}

/// A command line that does not fit the table.
package struct UsageError: Error, Equatable, Sendable {
  package var message: String
  /// Index of the offending word in the line's words, when there is one.
  package var wordIndex: Int?
  /// "did you mean 'login'?"
  package var suggestion: String?
  /// The line gives `--json` as a flag (anywhere before `--`, after the problem too): the error
  /// is printed as the JSON result, as the command's would have been.
  package var asksForJSON = false

  package init(_ message: String, wordIndex: Int? = nil, suggestion: String? = nil) {
    self.message = message
    self.wordIndex = wordIndex
    self.suggestion = suggestion
  }

  package var fullMessage: String { suggestion.map { "\(message); did you mean '\($0)'?" } ?? message }
}
