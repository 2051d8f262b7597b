import AuthCore

/// Every positional argument, declared once: its spec (name, kind, summary) and the type it reads
/// as. Command rows list these keys; handlers read them typed (`invocation[.user]`). Arguments
/// that share a name on different commands but say different things (EMAIL of `login` and of
/// `inbox`) are different keys.

// MARK: Accounts and sessions

extension ArgumentKey where Value == String {
  package static let accountEmail = text(ArgumentSpec("EMAIL", .email, optional: true, "The account's e-mail address"))
  package static let resetAddress = text(
    ArgumentSpec("EMAIL", .email, optional: true, "Where to send the reset e-mail"))
  package static let codeOrLink = text(
    ArgumentSpec("CODE-OR-LINK", .code, secret: true, "The link or code from the reset e-mail"))
  package static let inboxAddress = text(
    ArgumentSpec("EMAIL", .email, "The address (or +PHONE number) whose latest mail (or text) to show"))
  package static let mfaFactor = text(ArgumentSpec("FACTOR", .text, "The factor's id or name"))
}

// MARK: Support commands

extension ArgumentKey where Value == String {
  package static let user = text(ArgumentSpec("EMAIL", .email, "The account's e-mail address (or its user id)"))
  /// The account of a change command that also takes `--from FILE` for many accounts.
  package static let bulkUser = text(
    ArgumentSpec("EMAIL", .email, optional: true, "The account's e-mail address (or its user id); --from FILE for many")
  )
  package static let lookupUsers = text(
    ArgumentSpec(
      "EMAIL", .email, optional: true, variadic: true,
      "E-mail addresses, user ids or phone numbers (E.164, +15551234567)"))
  package static let newEmail = text(ArgumentSpec("NEW-EMAIL", .email, "The new e-mail address"))
  package static let auditUser = text(
    ArgumentSpec("EMAIL", .email, optional: true, "Only changes to this account (e-mail address or user id)"))
  package static let importFile = text(ArgumentSpec("FILE", .path, "Accounts to import (- for standard input)"))
}

// MARK: Backend and shell

extension ArgumentKey where Value == String {
  package static let profileName = text(ArgumentSpec("PROFILE", .profile, "A profile of config.toml"))
  package static let helpTopic = text(
    ArgumentSpec("COMMAND", .command, optional: true, variadic: true, "A command to explain"))
  package static let echoText = text(ArgumentSpec("TEXT", .text, optional: true, variadic: true, "Text to print"))
  package static let sourceFile = text(ArgumentSpec("FILE", .authFile, "A .auth script"))
}

extension ArgumentKey where Value == ProviderKind {
  package static let providerKind = Self(
    ArgumentSpec("PROVIDER", .provider, choices: ProviderKind.allCases.map(\.rawValue), "supabase or firebase")
  ) { value in ProviderKind(rawValue: value.text) }
}

extension ArgumentKey where Value == Double {
  package static let sleepDuration = duration(ArgumentSpec("DURATION", .duration, "e.g. 2s, 500ms, 1m"))
}

// MARK: Tools

extension ArgumentKey where Value == String {
  package static let runFiles = text(ArgumentSpec("FILE", .authFile, variadic: true, ".auth scripts to run"))
  package static let completionShell = text(
    ArgumentSpec("SHELL", .shell, choices: ["bash", "zsh", "fish"], "bash, zsh or fish"))
  package static let secretName = text(ArgumentSpec("NAME", .name, "The secret's name (letters, digits, . _ -)"))
}
