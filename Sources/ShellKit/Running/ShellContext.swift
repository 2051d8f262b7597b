import AuthCore
import Essentials
import JSONKit

/// Reads a password without echo (a terminal prompt). Absent when there is no terminal.
package protocol PasswordPrompter: Sendable {
  /// nil when the user cancelled (Ctrl-C / Ctrl-D).
  func readPassword(prompt: String) -> String?
  /// The same, for a prompt whose interruption leaves something behind: `note` says what (it is
  /// printed under "Cancelled." however the prompt is interrupted).
  func readPassword(prompt: String, ifInterrupted note: String) -> String?
  /// Asks for a value the line left out (an e-mail, a name) with echo on; nil when the user
  /// cancelled (Ctrl-C / Ctrl-D).
  func readText(prompt: String) -> String?
  /// Whether `readText` asks (a terminal); else a missing value is an error as without a terminal.
  var readsText: Bool { get }
}

extension PasswordPrompter {
  package func readPassword(prompt: String, ifInterrupted note: String) -> String? { readPassword(prompt: prompt) }
  package func readText(prompt: String) -> String? { nil }
  package var readsText: Bool { false }
}

/// Reads one line with echo (a terminal prompt: "type the e-mail to confirm"). Absent when there is
/// no terminal.
package protocol LinePrompter: Sendable {
  /// nil when the user cancelled (Ctrl-C / Ctrl-D).
  func readLine(prompt: String) -> String?
}

/// Makes the provider for a target; `trace` receives redacted request/response lines (`--verbose`).
package typealias ProviderMaker = @Sendable (Target, _ trace: (@Sendable (String) -> Void)?) -> any AuthProvider

/// Makes the admin provider for a target and credential (`user …`, `diagnose`).
package typealias AdminProviderMaker =
  @Sendable (Target, AdminCredential, _ trace: (@Sendable (String) -> Void)?) -> any AdminProvider

/// Everything commands need from the outside world, shared by one-shot commands, the shell and
/// scripts. What never changes (`ShellServices`: the providers, the clock, the redactor, the
/// stores, the audit log) is handed over at `init`; what `use`, `provider` and sign-ins change lives
/// in one guarded `ShellState`, so the compiler checks that every piece may cross tasks.
package final class ShellContext: Sendable {
  /// What never changes while the context lives.
  package let services: ShellServices
  private let pins = SessionPins()
  private let state: Guarded<ShellState>

  package var makeProvider: ProviderMaker { services.makeProvider }
  package var makeAdminProvider: AdminProviderMaker? { services.makeAdminProvider }
  package var clock: any Clock { services.clock }
  package var redactor: Redactor { services.redactor }
  package var sessionStores: SessionStores? { services.sessionStores }
  package var secretStore: (any SecretStore)? { services.secretStore }
  package var auditLog: (any AuditLog)? { services.auditLog }
  package var operatorName: String? { services.operatorName }
  package var traceSink: (@Sendable (String) -> Void)? { services.traceSink }
  package var readConfigFile: (@Sendable () -> ConfigResolver.ConfigFileContents?)? { services.readConfigFile }
  package var browserSignIn: (any BrowserSignIn)? { services.browserSignIn }
  /// The terminal's prompter, pausing the spinner of the command under way while it asks.
  package var passwordPrompter: (any PasswordPrompter)? { services.passwordPrompter.map(SpinnerPausingPrompter.init) }
  /// Asks for a line on a terminal (confirmations); nil without one.
  package var linePrompter: (any LinePrompter)? { services.linePrompter }
  package var openInputLines: @Sendable (String) throws -> any InputLines { services.openInputLines }
  package var openBatchReport: @Sendable (String, _ append: Bool) throws -> any BatchReportSink {
    services.openBatchReport
  }
  package var batchClock: any BatchClock { services.batchClock }
  package var batchPolicy: BatchPolicy { services.batchPolicy }
  /// `--password-stdin`: the first line of standard input (one-shot only).
  package var readStdinLine: (@Sendable () -> String?)? { services.readStdinLine }
  /// `secret set` from a pipe: all of standard input (one-shot only; nil: a terminal, or none).
  package var readStdinText: (@Sendable () throws -> String)? { services.readStdinText }
  private var baseStore: any SessionStore { services.sessionStore }

  /// The profile sessions: the given store, with profiles pinned in memory by `login --no-save`.
  package var sessionStore: any SessionStore { OverlaySessionStore(base: baseStore, pins: pins) }

  package var resolver: ConfigResolver {
    get { state[\.resolver] }
    set { state[\.resolver] = newValue }
  }
  /// Connection flags from the command line (one-shot) or the last `provider` command.
  package var connection: ConnectionFlags {
    get { state[\.connection] }
    set { state[\.connection] = newValue }
  }
  package var environment: [String: String] {
    get { state[\.environment] }
    set { state[\.environment] = newValue }
  }
  /// Targets of an in-process emulator, used by `provider X` without `--url` (`--emulator`).
  package var emulatorTargets: [ProviderKind: Target] {
    get { state[\.emulatorTargets] }
    set { state[\.emulatorTargets] = newValue }
  }
  /// E-mail addresses used in this session (completion).
  package var knownEmails: [String] { state[\.knownEmails] }
  /// The last command that failed (`retry`).
  package var lastFailed: Invocation? {
    get { state[\.lastFailed] }
    set { state[\.lastFailed] = newValue }
  }
  /// The previous command's result model in the shell (what `{{…}}` reads), for completion.
  package var previousResult: JSON? {
    get { state[\.previousResult] }
    set { state[\.previousResult] = newValue }
  }
  /// Output flags given for the whole run (`… | authsh --json`): every line that takes output
  /// flags and does not give one itself gets them.
  package var outputDefaults: [String: [FlagValue]] {
    get { state[\.outputDefaults] }
    set { state[\.outputDefaults] = newValue }
  }
  /// A script's `cleanup` block: changes there go ahead without `--yes` (the author wrote them).
  package var confirmedByScript: Bool {
    get { state[\.confirmedByScript] }
    set { state[\.confirmedByScript] = newValue }
  }
  /// Whether what a command prints reaches a person at a terminal (standard output and error are
  /// one): a
  /// new TOTP secret and its QR code are drawn only there (or with `--show-tokens`), never into a
  /// pipe or a CI log.
  package var outputToPerson: Bool {
    get { state[\.outputToPerson] }
    set { state[\.outputToPerson] = newValue }
  }
  /// The profile names of `config.toml` as it is now (as it was at the start without `readConfigFile`).
  package func currentProfileNames() -> [String] {
    guard let read = readConfigFile else { return resolver.profileNames() }
    let resolver = self.resolver
    return ConfigResolver(environment: resolver.environment, paths: resolver.paths, configFile: read()).profileNames()
  }
  /// `provider` when the connection names none yet (read and set under one lock).
  package func provideDefault(_ provider: ProviderKind) {
    state.update { if $0.connection.provider == nil { $0.connection.provider = provider } }
  }
  /// Takes `config.toml` as it is now, for `use`.
  package func rereadConfig() {
    guard let read = readConfigFile else { return }
    state.update { $0.resolver.configFile = read() }
  }
  /// The terminal's marks and width, for what a command draws itself (the QR code of
  /// `mfa enroll`); results are rendered with the surface's own style.
  package var style: Style {
    get { state[\.style] }
    set { state[\.style] = newValue }
  }
  /// `--verbose` for the whole run (one-shot flag); lines may also say `--verbose`.
  package var verbose: Bool {
    get { state[\.verbose] }
    set { state[\.verbose] = newValue }
  }

  package init(
    resolver: ConfigResolver, connection: ConnectionFlags = ConnectionFlags(), services: ShellServices,
    environment: [String: String] = [:]
  ) {
    self.services = services
    state = Guarded(ShellState(resolver: resolver, connection: connection, environment: environment))
  }

  /// A context with only the providers, the session store, the clock and the redactor (tests, tools).
  package convenience init(
    resolver: ConfigResolver, connection: ConnectionFlags = ConnectionFlags(), makeProvider: @escaping ProviderMaker,
    sessionStore: any SessionStore, clock: any Clock = SystemClock(), redactor: Redactor = Redactor(),
    environment: [String: String] = [:], passwordPrompter: (any PasswordPrompter)? = nil
  ) {
    self.init(
      resolver: resolver, connection: connection,
      services: ShellServices(
        makeProvider: makeProvider, sessionStore: sessionStore, clock: clock, redactor: redactor,
        passwordPrompter: passwordPrompter),
      environment: environment)
  }

  /// The resolved target (throws `config_error` with what to set).
  package func target() throws -> Target {
    if connection.url == nil, connection.key == nil, let provider = connection.provider,
      let emulated = emulatorTargets[provider]
    {
      var target = emulated
      target.profile = connection.profile ?? target.profile
      if let timeout = connection.timeout { target.timeout = timeout }
      if target.provider == .firebase, let tenant = connection.tenant { target.tenantId = tenant }
      return target
    }
    return try resolver.resolve(connection)
  }

  /// The sessions of the target's backend (provider + endpoint + project), whatever the profile.
  package func sessions(for target: Target) -> SessionManager {
    SessionManager(store: store(for: target), backend: BackendKey(target), clock: clock)
  }

  /// `login --no-save`: this backend's session lives in memory from now on.
  package func pinInMemory(_ target: Target) { store(for: target).pin(BackendKey(target).canonical) }

  private func store(for target: Target) -> OverlaySessionStore {
    OverlaySessionStore(base: sessionStores?.store(for: target.credentialStore) ?? baseStore, pins: pins)
  }

  /// A whole text file, or standard input for `-`.
  package static func readFile(_ path: String) throws -> String {
    String(decoding: try Descriptor.readFile(path), as: UTF8.self)
  }

  /// A whole text file of at most `limit` bytes, lines of at most `lineLimit` (`InputTooLarge`).
  package static func readFile(_ path: String, limit: Int, lineLimit: Int) throws -> String {
    if path != "-", isDirectory(path) == true { throw SystemError(EISDIR) }
    return String(decoding: try Descriptor.readFile(path, limit: limit, lineLimit: lineLimit), as: UTF8.self)
  }

  /// The caps of the files authsh reads whole: an account file of `user import`, a parameters
  /// file (`--hash-config`), a `run --data` table.
  package enum InputCaps {
    package static let accountFile = (limit: 1 << 30, line: 64 << 20)
    package static let parameters = (limit: 64 << 10, line: 64 << 10)
    package static let dataTable = (limit: 64 << 20, line: 1 << 20)
  }

  package func noteEmail(_ email: String) {
    let trimmed = email.trimmingWhitespace
    guard !trimmed.isEmpty else { return }
    state.update { state in
      if !state.knownEmails.contains(trimmed) { state.knownEmails.append(trimmed) }
    }
  }
}
