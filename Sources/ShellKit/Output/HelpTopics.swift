import AuthCore
import Essentials

/// `help [TOPIC…]` on every surface: the overview, one command (exact words or an alias; a
/// near miss is an error with a suggestion, never a silent fallback to a shorter command), or
/// `errors`, the error catalogue generated from `ErrorCode.catalogue`.
package enum HelpTopics {
  package static let errorsTopic = "errors"

  package static func render(_ words: [String], surface: Surfaces) -> Result<String, UsageError> {
    if words.isEmpty { return .success(HelpRenderer.overview(surface: surface)) }
    if words == [errorsTopic] { return .success(errors()) }
    if let (spec, consumed) = CommandTable.match(words), consumed == words.count {
      return .success(HelpRenderer.command(spec, surface: surface))
    }
    let topic = words.joined(separator: " ")
    let group = CommandTable.group(words, on: surface)
    if !group.isEmpty {
      let short = group.map { spec in
        ([spec.name]
          + spec.arguments.map {
            ($0.optional ? "[\($0.name)" : $0.name) + ($0.variadic ? "…" : "") + ($0.optional ? "]" : "")
          })
          .joined(separator: " ")
      }
      let width = short.map(\.count).max() ?? 0
      let rows = zip(short, group).map { "  " + $0.padded(to: width) + "  " + $1.summary }
      return .success(
        "'\(topic)' commands (help '\(topic) SUBCOMMAND' explains one):\n\n" + rows.joined(separator: "\n") + "\n")
    }
    let names = CommandTable.all.map(\.name) + [errorsTopic] + CommandTable.aliases.keys.sorted()
    guard let suggestion = Suggest.closest(to: topic, among: names) else {
      return .failure(UsageError("no help for '\(topic)'; 'help' lists the commands, 'help errors' the error codes"))
    }
    return .failure(UsageError("no help for '\(topic)'", suggestion: suggestion))
  }

  /// Every stable error code with the exit status a one-shot command ends with and its meaning:
  /// what `expect error CODE` accepts.
  package static func errors() -> String {
    var lines = [
      "Error codes (stable: `expect error CODE` in scripts, `error.code` in --json output).", "",
    ]
    let width = ErrorCode.catalogue.map(\.rawValue.count).max() ?? 0
    lines.append("  " + "CODE".padded(to: width) + "  EXIT  MEANING")
    for code in ErrorCode.catalogue {
      let exit = String(ExitStatus.forError(AuthError(code)))
      lines.append(
        "  " + code.rawValue.padded(to: width) + "  "
          + exit.padded(to: 4) + "  " + meaning(of: code))
    }
    lines += ["", "Unknown backend codes arrive as provider_error with the backend's code in error.provider_code."]
    return lines.joined(separator: "\n")
  }

  static func meaning(of code: ErrorCode) -> String {
    meanings[code] ?? AuthError.defaultMessage(for: code)
  }

  static let meanings: [ErrorCode: String] = [
    .invalidCredentials: "Wrong e-mail or password (never says which).",
    .userNotFound: "No account with that e-mail (only where the backend reveals it).",
    .emailNotConfirmed: "The e-mail address has not been confirmed yet.",
    .userAlreadyExists: "An account with that e-mail already exists.",
    .weakPassword: "The backend rejected the password as too weak; the message gives its reason.",
    .userDisabled: "The account is disabled or banned.",
    .rateLimited: "Too many attempts; error.retry_after_seconds says how long to wait when known.",
    .resetCooldown: "A reset mail was sent to that address less than 60 seconds ago.",
    .invalidCode: "The reset link or code is invalid, used or expired.",
    .notAuthenticated: "Not signed in.",
    .sessionExpired: "The session ended (its refresh token was refused); log in again.",
    .networkUnreachable: "Could not connect to the backend (refused, DNS, no route).",
    .timeout: "No answer within the timeout (--timeout, default 30s).",
    .serverError: "The backend answered with a 5xx error.",
    .malformedResponse: "The backend's answer was not the documented JSON.",
    .invalidRequest: "The backend rejected the request as invalid.",
    .configError: "Something is missing or wrong in the configuration; the message says what.",
    .insecureURL: "Refusing to send credentials over plain HTTP to a non-loopback host.",
    .validationFailed: "Input failed client-side validation; nothing was sent (see error.fields).",
    .passwordRequired: "No password source and no terminal to ask on.",
    .providerError: "A backend error authsh has no code for (see error.provider_code).",
    .usage: "The command line or statement is malformed.",
    .cancelled: "Interrupted (Ctrl-C).",
    .notSupported: "The backend cannot do this.",
    .noMail: "The emulator's outbox has no mail for that address.",
    .signupDisabled: "The project does not allow new sign-ups; the hint says where to enable them.",
    .passwordSignInDisabled: "E-mail and password sign-in is turned off for the project.",
    .samePassword: "The new password equals the old one; the reset link is now used, ask for a new one.",
    .reauthenticationNeeded: "The backend wants the user to sign in again before changing the password.",
    .readonlyProfile: "A command that changes accounts was refused on a readonly profile; nothing was sent.",
    .sessionNotSaved:
      "The server signed you in (signup: the account exists; refresh: it replaced the tokens) but the session could not be written (a full disk).",
    .auditUnavailable:
      "The audit log could not be written: the change was not sent (or was made but not recorded, as the message says).",
    .mfaRequired: "The account has a second factor and there was no code: add --code, --code-env or --totp-secret-env.",
    .mfaInvalidCode: "The second-factor (authenticator app) code was refused.",
    .outputNotWritten:
      "A file the command writes could not be written (a full disk): user export --output FILE (no half-written FILE is left), or a bulk change's or user import's --report FILE once accounts were being sent (the message says what was done).",
    .notFound: "What the command acts on (other than an account) is not there: secret delete NAME with no such secret.",
    .keyringUnavailable:
      "The session's tokens are in a keyring that cannot be reached here (no D-Bus session, locked): logout changed nothing; run it where the keyring unlocks.",
  ]
}
