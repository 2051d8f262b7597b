/// Where a command or flag can be used.
package struct Surfaces: OptionSet, Sendable, Hashable {
  package let rawValue: Int
  package init(rawValue: Int) { self.rawValue = rawValue }
  /// `authsh login …` from a shell.
  package static let oneShot = Surfaces(rawValue: 1)
  /// A line typed in the interactive shell.
  package static let repl = Surfaces(rawValue: 2)
  /// A statement in a `.auth` file (also `source` in the shell and piped stdin).
  package static let script = Surfaces(rawValue: 4)
  package static let all: Surfaces = [.oneShot, .repl, .script]
  package static let interactive: Surfaces = [.repl, .script]
}

/// What a value is, for completion, hints and redaction.
package enum ValueKind: String, Sendable, Hashable {
  case email, password, code, text, name, profile, provider, file, authFile, scope, url, key, number,
    host, shell, command, variable, path
  /// A short duration (timeouts, `sleep`): `30s`, `500ms`, `2m`, at most 24h.
  case duration
  /// A long span (bans, `--since`): `24h`, `7d`, `2w`, `1y`, at most 100 years.
  case span
}

package struct ArgumentSpec: Sendable, Hashable {
  /// As shown in usage: `EMAIL`, `CODE-OR-LINK`.
  package var name: String
  package var kind: ValueKind
  package var optional: Bool
  /// Takes all remaining words (`echo TEXT…`, `run FILE…`).
  package var variadic: Bool
  package var summary: String
  package var choices: [String]
  /// A credential (a recovery link or code): the line stays out of the history file, the value
  /// is masked in `history` and script output.
  package var secret: Bool

  package init(
    _ name: String, _ kind: ValueKind, optional: Bool = false, variadic: Bool = false, choices: [String] = [],
    secret: Bool = false, _ summary: String
  ) {
    self.name = name
    self.kind = kind
    self.optional = optional
    self.variadic = variadic
    self.summary = summary
    self.choices = choices
    self.secret = secret
  }

  package var isSecret: Bool { secret || kind == .password || kind == .key }
}

package struct FlagSpec: Sendable, Hashable {
  /// `--password`.
  package var name: String
  /// `VALUE`, or nil for a switch.
  package var valueName: String?
  package var kind: ValueKind?
  package var summary: String
  package var choices: [String]
  /// The value is a secret: never stored in history, masked in echoes.
  package var isSecret: Bool
  package var repeatable: Bool
  package var surfaces: Surfaces
  /// The command cannot succeed without it (on a terminal it may be asked for instead): usage
  /// shows it without brackets.
  package var required: Bool
  /// The smallest and largest value a `.number` or `.duration` flag takes (seconds for durations).
  package var bounds: ClosedRange<Double>?
  /// Giving this flag makes the command do more to the account than its row says (`user update
  /// --claims` grants roles): the rails of that access apply.
  package var access: AccountAccess?
  /// Its own decoder, for values no `kind` describes (set by `FlagKey.decoded`).
  package internal(set) var decoder: FlagDecoder?

  package init(
    _ name: String, value valueName: String? = nil, kind: ValueKind? = nil, choices: [String] = [],
    secret: Bool = false, repeatable: Bool = false, required: Bool = false, surfaces: Surfaces = .all,
    bounds: ClosedRange<Double>? = nil, access: AccountAccess? = nil, _ summary: String
  ) {
    self.name = name
    self.valueName = valueName
    self.kind = kind
    self.summary = summary
    self.choices = choices
    self.isSecret = secret
    self.repeatable = repeatable
    self.surfaces = surfaces
    self.required = required
    self.bounds = bounds
    self.access = access
  }

  package var takesValue: Bool { valueName != nil }
}

package enum CommandGroup: String, Sendable, CaseIterable {
  case account = "Account"
  case session = "Session"
  case support = "Support (admin API)"
  case backend = "Backend"
  case shell = "Shell"
  case tools = "Tools"
}

/// The spinner's words for a command that talks to a backend: plain ("Signing in…") when the
/// target is not known yet, and with the host ("Signing in to 127.0.0.1:54321…") so a slow
/// answer says which server is slow.
package struct Loading: Sendable, Hashable {
  package var plain: String
  /// With `%@` where the host goes; nil: the plain words followed by the host in parentheses.
  package var withHost: String?

  package init(_ plain: String, host withHost: String? = nil) {
    self.plain = plain
    self.withHost = withHost
  }
}

/// One command of the table: the single source for parsing, help, completion (shell and
/// REPL), history redaction, the script checker, the spinner's words, how the result prints and
/// the support commands' safety rails.
package struct CommandSpec: Sendable, Hashable {
  package let id: CommandID
  /// `["reset", "confirm"]`, split once (every parse matches the line against them).
  package let words: [String]
  package var arguments: [ArgumentSpec]
  package var flags: [FlagSpec]
  package var summary: String
  package var discussion: String
  package var examples: [String]
  package var surfaces: Surfaces
  package var group: CommandGroup
  /// The specs' loading words, shown by the spinner ("Signing in…"); nil: nothing is sent.
  package var loading: Loading?
  /// Accepts the per-invocation output flags (`--json`, `--verbose`, …).
  package var takesOutputFlags: Bool
  /// What the command does to the account it names (read-only refusal, confirmation, audit).
  package var access: AccountAccess
  /// One of the signed-in user's own commands that changes something on the server (an account
  /// made, a password set, a mail sent, a factor removed); admin commands say so by `access`.
  package var changesOwnAccount: Bool

  package init(
    _ id: CommandID, group: CommandGroup, surfaces: Surfaces = .all, arguments: [any DeclaredArgument] = [],
    flags: [any DeclaredFlag] = [], loading: Loading? = nil, takesOutputFlags: Bool = true,
    access: AccountAccess = .none, changesOwnAccount: Bool = false, summary: String,
    discussion: String = "",
    examples: [String] = []
  ) {
    self.id = id
    self.words = id.words
    self.arguments = arguments.map(\.spec)
    self.flags = flags.map(\.spec)
    self.summary = summary
    self.discussion = discussion
    self.examples = examples
    self.surfaces = surfaces
    self.group = group
    self.loading = loading
    self.takesOutputFlags = takesOutputFlags
    self.access = access
    self.changesOwnAccount = changesOwnAccount
  }

  package var name: String { id.rawValue }

  /// Whether any argument or flag of the command can carry a secret.
  package var carriesSecret: Bool { arguments.contains(where: \.isSecret) || flags.contains(where: \.isSecret) }

  package func flag(named name: String) -> FlagSpec? { flags.first { $0.name == name } }

  /// Whether `name` is one of its flags or, when it takes them, the output flags.
  package func accepts(_ name: String) -> Bool {
    flag(named: name) != nil || (takesOutputFlags && CommandTable.outputFlags.contains { $0.name == name })
  }

  /// Whether running it gives a result that replaces "the previous result" (`assert`, `{{…}}`):
  /// `echo`, `sleep` and `help` print or wait, and leave the previous command's result in place
  /// (with `output` set to what they printed).
  package var producesResult: Bool { ![.echo, .sleep, .help].contains(id) }

  /// `login [EMAIL] [--remember] [--no-save] [PASSWORD-SOURCE]` style usage.
  package func usage(for surface: Surfaces = .oneShot) -> String {
    var parts = [name]
    for argument in arguments {
      let text = argument.name + (argument.variadic ? "…" : "")
      parts.append(argument.optional ? "[\(text)]" : text)
    }
    for flag in flags where flag.surfaces.contains(surface) {
      let text = flag.name + (flag.valueName.map { " " + $0 } ?? "")
      parts.append(flag.required ? text : "[" + text + "]")
    }
    return parts.joined(separator: " ")
  }

  package static func == (lhs: CommandSpec, rhs: CommandSpec) -> Bool { lhs.id == rhs.id }
  package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
