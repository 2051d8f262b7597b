import AuthCore
import Essentials
import JSONKit

/// Human text for a result: the default output of one-shot commands and the shell. Every value
/// from the result (user data, server messages) goes through `TerminalText` here, before styling.
package enum HumanRenderer {
  package static func render(_ result: CommandResult, invocation: Invocation, style: Style, now: Int) -> (
    out: String, err: String
  ) {
    // `user show` prints every account, the missing and failed ones included, under its error.
    let listsLookups = result.payload(as: AccountsOutput.self)?.everyQuery == true && !result.lookups.isEmpty
    // Text with an error (`user import`'s summary of what was imported, skipped, failed) prints above it.
    if let error = result.error, let output = result.output {
      return (TerminalText.escapeKeepingLines(output) + "\n", renderError(error, style: style))
    }
    if let error = result.error, !listsLookups {
      // A bulk change prints its summary (what did get done) above the error.
      let summary =
        !(result.payload is BatchOutput) ? "" : result.notes.map(TerminalText.escape).joined(separator: "\n") + "\n"
      return (summary, renderError(error, style: style))
    }
    if let (out, err) = SupportRenderer.render(result, invocation: invocation, style: style) {
      return (
        out.isEmpty ? "" : out.joined(separator: "\n") + "\n", err.isEmpty ? "" : err.joined(separator: "\n") + "\n"
      )
    }
    var lines: [String] = []
    let safe = TerminalText.escape
    if let output = result.output { lines.append(TerminalText.escapeKeepingLines(output)) }
    switch result.payload {
    case let output as SecretsOutput:
      lines += output.names.map(safe)
    case let output as StatusOutput:
      let status = output.status
      lines += table(
        [
          ("provider", status.provider.rawValue), ("profile", status.profile), ("url", status.url),
          ("user", result.session.map { "\($0.user.label) (token \(expiry($0, now: now)))" } ?? "not signed in"),
        ] + (status.sessionLocation.map { [("session", $0)] } ?? [])
          + (status.sessionUnreadable.map { [("readable", "no: \($0)")] } ?? []))
    case let output as InboxOutput:
      let inbox = invocation.output(.showTokens) ? output.message : output.message.redacted
      lines += table([("to", inbox.email), ("kind", inbox.kind), ("code", inbox.code), ("link", inbox.link)])
    case let output as EnrollmentOutput:
      // Typed first code: the QR code was shown with the question. With --self-verify, here, and
      // only to a person at a terminal (or --show-tokens): never drawn into a pipe or a log.
      if invocation.given(.selfVerify) {
        let shown = output.draws ? output.enrollment : output.enrollment.redacted
        lines += output.draws ? TerminalQR.fitted(output.qrCode, style: style) : ["qr code " + Redactor.mask]
        lines += table([("uri", shown.uri), ("secret", shown.secret)])
      }
    case let output as FactorsOutput:
      lines += factorRows(output.factors)
    case let output as SessionOutput:
      if let user = output.user, let session = output.session {
        // `whoami`: the account as the backend has it now.
        lines += table(userRows(user, session: session, now: now))
      } else if let session = output.session {
        lines.append("Signed in as \(style.bold(safe(session.user.label))) (token \(expiry(session, now: now))).")
      } else if let user = output.user, output.confirmationRequired == true {
        lines.append(
          "Account created for \(style.bold(safe(user.email))); it needs e-mail confirmation before sign-in.")
      }
    default:
      break
    }
    if invocation.given(.claims), let claims = result.claims {
      lines.append("claims:")
      lines.append(TerminalText.escapeKeepingLines(claims.prettyText))
    }
    if invocation.output(.showTokens), let session = result.session {
      lines += table([("access token", session.accessToken), ("refresh token", session.refreshToken)])
    }
    lines += result.notes.map(TerminalText.escape)
    return (lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n", "")
  }

  package static func renderError(_ error: AuthError, style: Style) -> String {
    var lines: [String] = []
    let message = TerminalText.escape(error.message)
    if error.code == .sessionExpired {
      lines.append(style.yellow("⚠ " + message))
    } else {
      lines.append(style.red("error:") + " " + (error.fields.isEmpty ? message : "please correct these fields"))
    }
    for field in error.fields {
      lines.append("  \(field.field.rawValue): \(TerminalText.escape(field.message))")
    }
    var origin: [String] = [error.code.rawValue]
    if let providerCode = error.providerCode, providerCode != error.code.rawValue {
      origin.append(TerminalText.escape(providerCode))
    }
    if let status = error.status { origin.append("HTTP \(status)") }
    lines.append(style.dim("  (" + origin.joined(separator: ", ") + ")"))
    if let hint = error.hint { lines.append("  " + TerminalText.escape(hint)) }
    return lines.joined(separator: "\n") + "\n"
  }

  static func userRows(_ user: AuthUser, session: AuthSession?, now: Int) -> [(String, String)] {
    var rows: [(String, String)] = [
      ("email", user.email), ("id", user.id), ("email confirmed", user.emailConfirmed ? "yes" : "no"),
    ]
    if let phone = user.phone {
      // Signed in by phone, with no address: the number leads instead.
      if user.email.isEmpty { rows = [("phone", phone), ("id", user.id)] } else { rows.append(("phone", phone)) }
    }
    if let name = user.name { rows.append(("name", name)) }
    if let created = user.createdAt { rows.append(("created", created)) }
    if let last = user.lastSignInAt { rows.append(("last sign-in", last)) }
    rows.append(("provider", user.signInMethod))
    if let session {
      let methods = session.amr.isEmpty ? "" : " (" + session.amr.joined(separator: ", ") + ")"
      rows.append(("assurance", session.aal + methods))
    }
    rows.append(("factors", user.factors.isEmpty ? "none" : user.factors.map(factorSummary).joined(separator: "; ")))
    if let session { rows.append(("token", expiry(session, now: now))) }
    return rows
  }

  static func factorSummary(_ factor: AuthFactor) -> String {
    "\(factor.label) (\(factor.kind.rawValue), \(factor.status.rawValue))"
  }

  /// `mfa list`: one factor per line.
  static func factorRows(_ factors: [AuthFactor]) -> [String] {
    factors.map { factor in
      [factor.label, factor.kind.rawValue, factor.status.rawValue, factor.id, factor.createdAt ?? ""]
        .map(TerminalText.escape).joined(separator: "  ").trimmingWhitespace
    }
  }

  static func expiry(_ session: AuthSession, now: Int) -> String {
    let left = session.expiresIn(now: now)
    return left >= 0 ? "expires in \(Durations.describe(left))" : Durations.describe(left)
  }

  static func table(_ rows: [(String, String)]) -> [String] {
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { $0.0.padded(to: width) + "  " + TerminalText.escape($0.1) }
  }
}
