import AuthCore

extension CommandTable {
  /// The handler of every row: the list of command types. A test checks that every `CommandID`
  /// has exactly one.
  static let handlers: [CommandID: any Command] = [
    .signup: SignUpCommand(), .login: LogInCommand(), .reset: ResetCommand(), .resetConfirm: ResetConfirmCommand(),
    .whoami: WhoamiCommand(), .logout: LogoutCommand(), .refresh: RefreshCommand(), .status: StatusCommand(),
    .inbox: InboxCommand(),
    .mfaEnroll: MfaEnrollCommand(), .mfaList: MfaListCommand(), .mfaRemove: MfaRemoveCommand(),
    .userShow: UserShowCommand(), .userList: UserListCommand(),
    .userLinkRecovery: UserLinkCommand(kind: .recovery), .userLinkConfirm: UserLinkCommand(kind: .confirm),
    .userLinkInvite: UserLinkCommand(kind: .invite),
    .userConfirm: UserConfirmCommand(), .userResend: UserResendCommand(), .userDisable: UserDisableCommand(),
    .userEnable: UserEnableCommand(), .userSetPassword: UserSetPasswordCommand(),
    .userSetEmail: UserSetEmailCommand(), .userUpdate: UserUpdateCommand(), .userCreate: UserCreateCommand(),
    .userDelete: UserDeleteCommand(), .userSignout: UserSignoutCommand(), .userMfaReset: UserMfaResetCommand(),
    .userHistory: UserHistoryCommand(), .userExport: UserExportCommand(), .userImport: UserImportCommand(),
    .diagnose: DiagnoseCommand(), .audit: AuditCommand(),
    .use: UseCommand(), .provider: ProviderCommand(),
    .help: HelpCommand(), .version: VersionCommand(), .echo: EchoCommand(), .sleep: SleepCommand(),
    .secretSet: SecretSetCommand(), .secretList: SecretListCommand(), .secretDelete: SecretDeleteCommand(),
    .secretMigrate: SecretMigrateCommand(),
    .retry: ElsewhereCommand(place: .shell), .history: ElsewhereCommand(place: .shell),
    .source: ElsewhereCommand(place: .shell), .clear: ElsewhereCommand(place: .shell),
    .quit: ElsewhereCommand(place: .shell), .exit: ElsewhereCommand(place: .shell),
    .run: ElsewhereCommand(place: .executable), .emulator: ElsewhereCommand(place: .executable),
    .emulatorFaultsClear: ElsewhereCommand(place: .executable), .completion: ElsewhereCommand(place: .executable),
  ]

  /// What `invocation` prints or draws as it goes (its command type says), for the caller's `CommandIO`.
  package static func live(_ invocation: Invocation) -> LiveOutput? { handler(invocation.id).live(invocation) }

  /// What `invocation` reads from standard input besides a password (its command type says).
  package static func standardInput(_ invocation: Invocation) -> StandardInputUse? {
    handler(invocation.id).standardInput(invocation)
  }

  /// The result of `command` failing with `error` before it made an output (a usage error, a
  /// cancellation), in the shape its successes have.
  package static func failure(_ command: CommandSpec, _ error: AuthError) -> CommandResult {
    var result = CommandResult.failure(command.name, error)
    result.payload = handler(command.id).outputOnFailure
    return result
  }

  /// The handler of a command (every `CommandID` has one; a test checks it).
  static func handler(_ id: CommandID) -> any Command {
    guard let handler = handlers[id] else { preconditionFailure("no handler for '\(id.rawValue)'") }
    return handler
  }
}
