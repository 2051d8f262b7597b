import AuthCore
import JSONKit

/// What a `ShellContext` may change while it runs: the connection, the run's output settings, and
/// the shell's memory (the last failure, the previous result, the addresses seen). Kept in one
/// `Guarded` place.
struct ShellState: Sendable {
  var resolver: ConfigResolver
  var connection: ConnectionFlags
  var environment: [String: String]
  var emulatorTargets: [ProviderKind: Target] = [:]
  var knownEmails: [String] = []
  var lastFailed: Invocation?
  var previousResult: JSON?
  var outputDefaults: [String: [FlagValue]] = [:]
  var confirmedByScript = false
  var verbose = false
  var outputToPerson = false
  var style = Style(color: false)

  init(resolver: ConfigResolver, connection: ConnectionFlags, environment: [String: String]) {
    self.resolver = resolver
    self.connection = connection
    self.environment = environment
  }
}
