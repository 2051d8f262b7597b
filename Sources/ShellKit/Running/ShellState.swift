import AuthCore
import JSONKit

/// What a `ShellContext` may change while it runs: the connection, what each command
/// is given to talk to (prompts, input files, the batch clock), and the shell's memory (the last failure, the previous result, the
/// addresses seen). Kept in one `Guarded` place.
struct ShellState: Sendable {
  var resolver: ConfigResolver
  var connection: ConnectionFlags
  var passwordPrompter: (any PasswordPrompter)?
  var linePrompter: (any LinePrompter)?
  var readStdinLine: (@Sendable () -> String?)?
  var readStdinText: (@Sendable () throws -> String)?
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
  var openInputLines: @Sendable (String) throws -> any InputLines = ShellContext.openLines
  var openBatchReport: @Sendable (String, _ append: Bool) throws -> any BatchReportSink = BatchReportFile.open
  var batchClock: any BatchClock = SystemBatchClock()
  var batchPolicy = BatchPolicy()

  init(resolver: ConfigResolver, connection: ConnectionFlags, environment: [String: String]) {
    self.resolver = resolver
    self.connection = connection
    self.environment = environment
  }
}
