import AuthCore
import Essentials

/// What a context uses and never changes: the providers' factories, the clock, the redactor, the
/// stores, the audit log, the keyring, the browser, the prompters and the files a batch reads and
/// writes. Handed to `ShellContext` at `init`; no command or surface swaps one while a context lives.
/// (The spinner a prompt pauses is the call's own: `PromptPause`.)
package struct ShellServices: Sendable {
  package var makeProvider: ProviderMaker
  /// nil where admin commands cannot run (tests that do not need them).
  package var makeAdminProvider: AdminProviderMaker?
  package var clock: any Clock
  package var redactor: Redactor
  /// The profile sessions when no store is picked by the target's `credential_store`.
  package var sessionStore: any SessionStore
  /// Picks the store by the target's `credential_store` (keyring, file); nil: `sessionStore` for
  /// every target (memory for `--emulator` and scripts, tests).
  package var sessionStores: SessionStores?
  /// The platform keyring for `secret set|list|delete` and `service_key_keyring`; nil: none here.
  package var secretStore: (any SecretStore)?
  /// Where mutating admin commands are recorded; nil: not recorded (tests that do not care).
  package var auditLog: (any AuditLog)?
  /// Who runs authsh, for the audit log: the OS user and host (`ada@laptop`); nil: not known.
  package var operatorName: String?
  /// Where `--verbose` traces go (already redacted).
  package var traceSink: (@Sendable (String) -> Void)?
  /// Reads `config.toml` again: a profile added while the shell runs is offered by `use <Tab>`
  /// and taken by `use`.
  package var readConfigFile: (@Sendable () -> ConfigResolver.ConfigFileContents?)?
  /// `login --oauth`'s listener and browser (nil: this surface cannot open one).
  package var browserSignIn: (any BrowserSignIn)?
  /// Reads a password without echo, or a value the line left out, on a terminal; nil without one.
  package var passwordPrompter: (any PasswordPrompter)?
  /// Asks for a line on a terminal (confirmations); nil without one.
  package var linePrompter: (any LinePrompter)?
  /// Opens `--from FILE` (`-`: standard input) to be read a line at a time; throws with the reason.
  package var openInputLines: @Sendable (String) throws -> any InputLines = ShellContext.openLines
  /// Opens `--report FILE` of a bulk change for writing (created or emptied, mode 0600), or
  /// `--resume REPORT` to append to it.
  package var openBatchReport: @Sendable (String, _ append: Bool) throws -> any BatchReportSink = BatchReportFile.open
  /// The time a bulk change waits on when a rate limit slows it down.
  package var batchClock: any BatchClock = SystemBatchClock()
  /// How hard a bulk change retries (tests shorten the delays).
  package var batchPolicy = BatchPolicy()
  /// `--password-stdin`: the first line of standard input (one-shot only).
  package var readStdinLine: (@Sendable () -> String?)?
  /// `secret set` from a pipe: all of standard input (one-shot only; nil: a terminal, or none).
  package var readStdinText: (@Sendable () throws -> String)?

  package init(
    makeProvider: @escaping ProviderMaker, sessionStore: any SessionStore, clock: any Clock = SystemClock(),
    redactor: Redactor = Redactor(), makeAdminProvider: AdminProviderMaker? = nil,
    sessionStores: SessionStores? = nil, secretStore: (any SecretStore)? = nil, auditLog: (any AuditLog)? = nil,
    operatorName: String? = nil, traceSink: (@Sendable (String) -> Void)? = nil,
    readConfigFile: (@Sendable () -> ConfigResolver.ConfigFileContents?)? = nil,
    browserSignIn: (any BrowserSignIn)? = nil, passwordPrompter: (any PasswordPrompter)? = nil,
    linePrompter: (any LinePrompter)? = nil, readStdinLine: (@Sendable () -> String?)? = nil,
    readStdinText: (@Sendable () throws -> String)? = nil
  ) {
    self.makeProvider = makeProvider
    self.sessionStore = sessionStore
    self.clock = clock
    self.redactor = redactor
    self.makeAdminProvider = makeAdminProvider
    self.sessionStores = sessionStores
    self.secretStore = secretStore
    self.auditLog = auditLog
    self.operatorName = operatorName
    self.traceSink = traceSink
    self.readConfigFile = readConfigFile
    self.browserSignIn = browserSignIn
    self.passwordPrompter = passwordPrompter
    self.linePrompter = linePrompter
    self.readStdinLine = readStdinLine
    self.readStdinText = readStdinText
  }
}
