import AuthCore

/// Every command of the table, by identity. The raw value is the command's words as typed.
///
/// `CommandTable.all` has exactly one row per case and `CommandTable.handlers` one command type
/// (tests check both).
package enum CommandID: String, CaseIterable, Sendable, Hashable {
  // Account
  case signup, login, reset
  case resetConfirm = "reset confirm"
  // Session
  case whoami, logout, refresh, status, inbox
  // Second factors of the signed-in user
  case mfaEnroll = "mfa enroll"
  case mfaList = "mfa list"
  case mfaRemove = "mfa remove"
  // Support (admin API)
  case userShow = "user show"
  case userList = "user list"
  case userLinkRecovery = "user link recovery"
  case userLinkConfirm = "user link confirm"
  case userLinkInvite = "user link invite"
  case userConfirm = "user confirm"
  case userResend = "user resend"
  case userDisable = "user disable"
  case userEnable = "user enable"
  case userSetPassword = "user set-password"
  case userSetEmail = "user set-email"
  case userUpdate = "user update"
  case userCreate = "user create"
  case userDelete = "user delete"
  case userSignout = "user signout"
  case userMfaReset = "user mfa reset"
  case userHistory = "user history"
  case userExport = "user export"
  case userImport = "user import"
  case diagnose, audit
  // Backend
  case use, provider
  // Shell
  case help, sleep, echo, retry, history, source, clear, quit, exit
  // Tools
  case run, emulator
  case emulatorFaultsClear = "emulator faults clear"
  case version, completion
  case secretSet = "secret set"
  case secretList = "secret list"
  case secretDelete = "secret delete"
  case secretMigrate = "secret migrate"

  /// `["reset", "confirm"]`.
  package var words: [String] { rawValue.split(separator: " ").map(String.init) }
}

/// What a command does to the account it names. The safety rails follow from this one field:
/// a `readonly = true` profile refuses everything but `.read` before anything is sent; `.grant`
/// and `.destroy` ask on a terminal ("type the e-mail address to confirm") and need `--yes`
/// otherwise; `.grant`, `.change` and `.destroy` append a line to the audit log.
package enum AccountAccess: Int, Sendable, Hashable, Comparable, CaseIterable {
  /// Not an admin command (the signed-in user's own commands, shell and tools).
  case none
  /// Looks at accounts (`user show`, `diagnose`).
  case read
  /// Changes an account without giving anyone a way in or taking one away (`user confirm`).
  case change
  /// Gives whoever holds the result a way in (`user link recovery`, `user set-password`).
  case grant
  /// Takes something away that cannot simply be given back (`user delete`, `user disable`).
  case destroy

  package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Refused on a `readonly` profile.
  package var refusedWhenReadonly: Bool { self >= .change }
  /// Asks for confirmation on a terminal, needs `--yes` without one.
  package var needsConfirmation: Bool { self == .grant || self == .destroy }
  /// Appends a line to the audit log.
  package var isAudited: Bool { self >= .change }
}

extension CommandResult {
  /// The result of a command, named as its row is (`reset confirm`): no second spelling to keep in step.
  package init(_ id: CommandID) { self.init(command: CommandTable.spec(id).name) }
}
