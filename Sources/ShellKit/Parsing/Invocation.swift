/// A command line matched against the table: which command, its arguments and flags.
public struct Invocation: Sendable, Equatable {
  public var spec: CommandSpec
  /// Positional values by argument name (`EMAIL`), decoded by the argument's kind when the line
  /// was parsed (read them typed: `invocation[.user]`); a variadic argument's words are in `rest`.
  public var arguments: [String: FlagValue]
  /// All values of a variadic argument.
  public var rest: [String]
  /// Flag values by flag name, decoded by the flag's kind when the line was parsed.
  public var flags: [String: [FlagValue]]
  /// The words as given (after the command words), for history and `retry`.
  public var words: [Word]

  public init(
    spec: CommandSpec, arguments: [String: FlagValue] = [:], rest: [String] = [], flags: [String: [FlagValue]] = [:],
    words: [Word] = []
  ) {
    self.spec = spec
    self.arguments = arguments
    self.rest = rest
    self.flags = flags
    self.words = words
  }

  public var id: CommandID { spec.id }

  /// What this invocation does to the account: the row's access, raised by flags that do more
  /// (`user update --claims` grants roles).
  public var access: AccountAccess {
    spec.flags.reduce(spec.access) { access, flag in
      guard let raised = flag.access, flags[flag.name] != nil else { return access }
      return max(access, raised)
    }
  }

  /// Whether a request of this command, once sent, may have changed something on the server (an
  /// account made, a password changed, a mail sent, a factor removed): what a cancelled one must
  /// say, since trying again may then fail (`user_already_exists`) or do it twice.
  public var mayChangeTheServer: Bool {
    access >= .change || spec.changesOwnAccount
  }

  /// Whether this line actually carries a secret value (a `--password VALUE`, `--key KEY`, …).
  public var carriesSecret: Bool {
    spec.flags.contains { $0.isSecret && flags[$0.name] != nil }
      || spec.arguments.contains { $0.isSecret && arguments[$0.name] != nil }
      || CommandTable.globalFlags.contains { $0.isSecret && flags[$0.name] != nil }
  }
}

/// A command line that does not fit the table.
public struct UsageError: Error, Equatable, Sendable {
  public var message: String
  /// Index of the offending word in the line's words, when there is one.
  public var wordIndex: Int?
  /// "did you mean 'login'?"
  public var suggestion: String?

  public init(_ message: String, wordIndex: Int? = nil, suggestion: String? = nil) {
    self.message = message
    self.wordIndex = wordIndex
    self.suggestion = suggestion
  }

  public var fullMessage: String { suggestion.map { "\(message); did you mean '\($0)'?" } ?? message }
}
