import AuthCore

/// Exit codes of one-shot commands.
package enum ExitStatus {
  package static let success: Int32 = 0
  package static let failure: Int32 = 1
  package static let scriptError: Int32 = 2
  package static let backend: Int32 = 3
  package static let notSignedIn: Int32 = 4
  package static let usage: Int32 = 64
  /// EX_DATAERR: a file to read (an account export) is no file of a shape authsh reads.
  package static let dataError: Int32 = 65
  /// EX_UNAVAILABLE: a bulk change the backend cannot make for any account listed; nothing was sent.
  package static let unavailable: Int32 = 69
  /// EX_CONFIG: a `config_error` found locally (config.toml, a missing URL/key/profile, the session file).
  package static let configuration: Int32 = 78
  /// Standard output, a script report, a --report or --output file, the audit log or a session file could not
  /// be written (EX_IOERR).
  package static let ioError: Int32 = 74
  /// EX_TEMPFAIL: the keyring holding the session cannot be reached now; nothing was changed.
  package static let temporaryFailure: Int32 = 75
  package static let interrupted: Int32 = 130

  /// Every exit status with its meaning, for the man page and help.
  package static let documented: [(Int32, String)] = [
    (success, "Success; every test passed."),
    (failure, "A command or an assertion failed (wrong password, validation, ...)."),
    (scriptError, "A script parse or check error; nothing was sent."),
    (backend, "The backend was unreachable, timed out, or answered 5xx or malformed."),
    (notSignedIn, "Not signed in, or the session expired (whoami, logout, refresh)."),
    (usage, "Command-line usage error."),
    (
      dataError,
      "A file to read is not what it should be: an account file of no known shape, a record with the wrong fields; nothing was sent."
    ),
    (
      unavailable,
      "A bulk change (--from) the backend cannot make for any account listed (not_supported); nothing was sent."
    ),
    (
      ioError,
      "Standard output, a script report, an export's --output file, a bulk change's or import's --report file, the audit log or a session file could not be written (disk full, closed)."
    ),
    (
      temporaryFailure,
      "The keyring holding the session cannot be reached here (logout); nothing was changed, try again where it can."
    ),
    (
      configuration,
      "A configuration problem found before sending: config.toml, a missing URL, key or profile, an unusable session file."
    ),
    (interrupted, "Interrupted."),
  ]

  package static func oneShot(_ result: CommandResult) -> Int32 {
    if let error = result.error {
      if error.code == .notSupported, result.payload is BatchOutput { return unavailable }
      return forError(error)
    }
    // `diagnose`, like grep: 1 when a finding blocks the sign-in (or there is no account).
    if let output = result.payload(as: DiagnosisOutput.self), !output.diagnosis.canSignIn { return failure }
    return lookups(result.lookups)
  }

  /// `user show`, like grep: 0 when every account was found, 1 when any is missing, or the
  /// status of the first lookup that failed otherwise (3 for an outage).
  package static func lookups(_ lookups: [UserLookup]) -> Int32 {
    if let failure = lookups.compactMap(\.error).first(where: { $0.code != .userNotFound }) { return forError(failure) }
    return lookups.contains { $0.user == nil } ? failure : success
  }

  /// The exit status of a one-shot command that failed with `error`.
  package static func forError(_ error: AuthError) -> Int32 {
    if error.code == .cancelled { return interrupted }
    if error.code == .usage { return usage }
    if error.code == .invalidFile { return dataError }
    if [.auditUnavailable, .sessionNotSaved, .outputNotWritten].contains(error.code) { return ioError }
    if error.code == .keyringUnavailable { return temporaryFailure }
    // Found before anything was sent; a key or URL the backend rejected (it answered) stays 1.
    if error.code == .configError, error.status == nil, error.providerCode == nil { return configuration }
    if error.isBackendFailure { return backend }
    if error.isAuthenticationRequired { return notSignedIn }
    return failure
  }
}
