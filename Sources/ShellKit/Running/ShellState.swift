import AuthCore
import JSONKit

/// What a `ShellContext` may change while it runs: the connection, what each command
/// is given to talk to (prompts, progress, streams), and the shell's memory (the last failure, the previous result, the
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
  var lookupStream: (@Sendable (UserLookup) -> Void)?
  var lookupProgress: (@Sendable (_ done: Int, _ total: Int?) -> Void)?
  var lookupShouldStop: (@Sendable () -> Bool)?
  var openInputLines: @Sendable (String) throws -> any InputLines = ShellContext.openLines
  var batchProgress: (@Sendable (BatchProgress) -> Void)?
  var openBatchReport: @Sendable (String, _ append: Bool) throws -> any BatchReportSink = BatchReportFile.open
  var batchStop: BatchStop?
  var batchClock: any BatchClock = SystemBatchClock()
  var scanProgress: (@Sendable (ScanProgress) -> Void)?
  var batchPolicy = BatchPolicy()
  var exportOutput: ExportOutput?

  init(resolver: ConfigResolver, connection: ConnectionFlags, environment: [String: String]) {
    self.resolver = resolver
    self.connection = connection
    self.environment = environment
  }
}
