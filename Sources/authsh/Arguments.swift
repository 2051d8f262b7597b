import AuthCore
import ShellKit

/// argv split by the command table: flags that apply to the whole run, and the command line.
struct Arguments {
  var connection = ConnectionFlags()
  var emulator = false
  /// `--like-production`: the in-process emulator behaves like the hosted products.
  var likeProduction = false
  /// `--seed FILE`: the in-process emulator starts with these accounts.
  var seed: String?
  var noRC = false
  var help = false
  var version = false
  /// Output flags given before the command word (`authsh --json whoami`), passed on to the command.
  var leadingOutputFlags: [String] = []
  /// The command and everything after it.
  var command: [String] = []

  /// The command its words name in the table (an alias too); nil when there are none or they name none.
  var commandID: CommandID? { CommandTable.match(command)?.spec.id }

  /// argv by the table's one flag reader: the run's flags before the command word, and the
  /// command line from it on (whose own flags, and the run's given after it, its parse reads).
  static func parse(_ argv: [String]) -> Result<Arguments, UsageError> {
    let words = argv.enumerated().map { index, text in Word(text: text, start: index, end: index + 1) }
    return InvocationParser.parseLeading(words).flatMap { leading in
      var result = Arguments()
      result.help = leading.help
      result.version = leading.version
      result.leadingOutputFlags = leading.outputWords
      result.command = leading.rest.map(\.text)
      if let problem = result.take(leading.flags) { return .failure(problem) }
      return .success(result)
    }
  }

  /// The run's connection and emulator flags, read by their keys (the parse checked their
  /// choices); a later one overrides an earlier one. nil when accepted.
  mutating func take(_ flags: RunFlags) -> UsageError? {
    if let tenant = flags[.tenant] {
      guard !tenant.isEmpty else { return UsageError("--tenant needs a tenant id") }
      connection.tenant = tenant
    }
    if let profile = flags[.profile] { connection.profile = profile }
    if let provider = flags[.backend] { connection.provider = ProviderKind(rawValue: provider) }
    if let url = flags[.url] { connection.url = url }
    if let key = flags[.key] { connection.key = key }
    if flags[.allowInsecureHTTP] == true { connection.allowInsecureHTTP = true }
    if let store = flags[.credentialStore] { connection.credentialStore = CredentialStoreMode(rawValue: store) }
    if flags[.emulator] == true { emulator = true }
    if flags[.likeProduction] == true { likeProduction = true }
    if let seed = flags[.emulatorSeed] { self.seed = seed }
    if flags[.noRC] == true { noRC = true }
    return nil
  }

  /// Takes the connection flags given after the command word out of an invocation
  /// (`authsh login a@b --profile x`), where its parse decoded them.
  mutating func absorb(_ invocation: inout Invocation) -> UsageError? {
    var flags = RunFlags()
    for flag in CommandTable.connectionFlags where invocation.spec.flag(named: flag.name) == nil {
      if let values = invocation.flags.removeValue(forKey: flag.name) { flags.values[flag.name] = values }
    }
    return take(flags)
  }
}
