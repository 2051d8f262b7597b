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

  static func parse(_ argv: [String]) -> Result<Arguments, UsageError> {
    var result = Arguments()
    var index = 0
    while index < argv.count {
      let word = argv[index]
      guard word.hasPrefix("-"), word != "-" else {
        result.command = Array(argv[index...])
        break
      }
      let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(parts[0])
      if name == "-h" || name == "--help" {
        result.help = true
        index += 1
        continue
      }
      if name == "-V" || name == "--version" {
        result.version = true
        index += 1
        continue
      }
      let known = CommandTable.connectionFlags + CommandTable.outputFlags
      guard let flag = known.first(where: { $0.name == name }) else {
        return .failure(
          UsageError(
            "unknown flag '\(name)'", suggestion: Suggest.closest(to: name, among: CommandTable.globalFlags.map(\.name))
          ))
      }
      var value: String?
      if flag.takesValue {
        if parts.count == 2 {
          value = String(parts[1])
        } else if index + 1 < argv.count {
          index += 1
          value = argv[index]
        } else {
          return .failure(UsageError("\(name) needs a value (\(flag.valueName ?? "VALUE"))"))
        }
      }
      if CommandTable.outputFlags.contains(where: { $0.name == name }) {
        result.leadingOutputFlags.append(name)
        if let value { result.leadingOutputFlags.append(value) }
      } else if let problem = result.apply(name, value) {
        return .failure(problem)
      }
      index += 1
    }
    return .success(result)
  }

  /// Records a connection flag; nil when accepted.
  mutating func apply(_ name: String, _ value: String?) -> UsageError? {
    guard let setter = Self.setters.first(where: { $0.flag.spec.name == name }) else {
      return UsageError("unknown flag '\(name)'")
    }
    return setter.set(&self, value)
  }

  /// What each connection flag sets, beside its key in the table: the table declares the flag
  /// (help, completion, the one-shot parser), this list says where its value goes.
  private static let setters: [(flag: any DeclaredFlag, set: @Sendable (inout Arguments, String?) -> UsageError?)] = [
    (
      FlagKey.profile,
      {
        $0.connection.profile = $1
        return nil
      }
    ),
    (
      FlagKey.tenant,
      { arguments, value in
        guard let value, !value.isEmpty else { return UsageError("--tenant needs a tenant id") }
        arguments.connection.tenant = value
        return nil
      }
    ),
    (
      FlagKey.backend,
      { arguments, value in
        guard let kind = value.flatMap(ProviderKind.init(rawValue:)) else {
          return UsageError(
            "--provider must be supabase or firebase, not '\(value ?? "")'",
            suggestion: Suggest.choice(for: value ?? "", among: ["supabase", "firebase"]))
        }
        arguments.connection.provider = kind
        return nil
      }
    ),
    (
      FlagKey.url,
      {
        $0.connection.url = $1
        return nil
      }
    ),
    (
      FlagKey.key,
      {
        $0.connection.key = $1
        return nil
      }
    ),
    (
      FlagKey.allowInsecureHTTP,
      { arguments, _ in
        arguments.connection.allowInsecureHTTP = true
        return nil
      }
    ),
    (
      FlagKey.credentialStore,
      { arguments, value in
        let choices = CredentialStoreMode.allCases.map(\.rawValue)
        guard let mode = value.flatMap(CredentialStoreMode.init(rawValue:)) else {
          return UsageError(
            "--credential-store must be one of \(choices.joined(separator: ", ")), not '\(value ?? "")'",
            suggestion: Suggest.choice(for: value ?? "", among: choices))
        }
        arguments.connection.credentialStore = mode
        return nil
      }
    ),
    (
      FlagKey.emulator,
      { arguments, _ in
        arguments.emulator = true
        return nil
      }
    ),
    (
      FlagKey.likeProduction,
      { arguments, _ in
        arguments.likeProduction = true
        return nil
      }
    ),
    (
      FlagKey.emulatorSeed,
      {
        $0.seed = $1
        return nil
      }
    ),
    (
      FlagKey.noRC,
      { arguments, _ in
        arguments.noRC = true
        return nil
      }
    ),
  ]

  /// Splits connection flags given after the command word out of an invocation (`authsh login a@b --profile x`).
  mutating func absorb(_ invocation: inout Invocation) -> UsageError? {
    for flag in CommandTable.connectionFlags where invocation.spec.flag(named: flag.name) == nil {
      guard let values = invocation.flags.removeValue(forKey: flag.name) else { continue }
      if let problem = apply(flag.name, flag.takesValue ? values.last?.text : nil) { return problem }
    }
    return nil
  }
}
