import AuthCore
import Essentials
import JSONKit

/// Human text of the support commands (`user …`, `diagnose`, `audit`). Every value from the
/// server goes through `TerminalText` (a display name with escape codes shows as `\e[…`).
enum SupportRenderer {
  /// nil when `result`'s output is none of the support commands' own (a change prints its
  /// sentences, `user import` its summary, as any command's text and notes print).
  static func render(_ result: CommandResult, invocation: Invocation, style: Style) -> (out: [String], err: [String])? {
    let safe = TerminalText.escape
    var out: [String] = []
    var err: [String] = []
    switch result.payload {
    case let accounts as AccountsOutput where accounts.everyQuery:
      // `user show`; the change commands print their sentence (the notes below), not the account.
      let reveal = invocation.output(.showTokens)
      if invocation[.jsonl] {
        out = accounts.lookups.map { CommandResult.lookupJSON($0, revealTokens: reveal).compactText }
      } else {
        out = lookups(accounts.lookups, style: style, revealTokens: reveal)
      }
    case let page as UserPageOutput:
      out = userPage(page.page, invocation: invocation, width: style.width)
    case let output as LinkOutput:
      let link = output.link
      let what: String
      switch link.kind {
      case .recovery: what = "Password-recovery link"
      case .confirm: what = "Sign-up confirmation link"
      case .invite: what = "Invitation link"
      }
      err.append("\(what) for \(style.bold(safe(link.email))) (no mail was sent):")
      out.append(safe(link.url))
      if let code = link.code { err.append("one-time code: \(safe(code))") }
      err.append(
        style.yellow(
          "⚠ Whoever opens this link is signed in as \(safe(link.email)): hand it only to the account's owner."))
    case let output as DiagnosisOutput:
      out = diagnosis(output.diagnosis, style: style)
    case let output as AuditOutput:
      out = audit(output.entries, width: style.width)
    case let output as HistoryOutput:
      out = SupportAccountRenderer.history(output.history, width: style.width)
    default:
      return nil
    }
    out += result.notes.map(safe)
    return (out, err)
  }

  /// One screen per account; a missing one is a line in its place; a count when there were several.
  static func lookups(_ lookups: [UserLookup], style: Style, revealTokens: Bool = false) -> [String] {
    var lines: [String] = []
    for lookup in lookups {
      if !lines.isEmpty { lines.append("") }
      if let user = lookup.user {
        lines.append(style.bold(TerminalText.escape(title(user))))
        lines += HumanRenderer.table(userRows(user, revealTokens: revealTokens)).map { "  " + $0 }
      } else if let error = lookup.error, error.code != .userNotFound {
        lines.append(
          style.red("✗ \(TerminalText.escape(lookup.query)): ") + TerminalText.escape(error.message)
            + style.dim(" (\(error.code.rawValue))"))
      } else {
        lines.append(style.yellow("✗ \(TerminalText.escape(lookup.query)): no such account"))
      }
    }
    if lookups.count > 1 {
      let found = lookups.filter { $0.user != nil }.count
      let missing = lookups.filter { $0.user == nil && ($0.error?.code ?? .userNotFound) == .userNotFound }.count
      let failed = lookups.count - found - missing
      var summary = "Found \(found) of \(lookups.count) accounts"
      var parts: [String] = []
      if missing > 0 { parts.append("\(missing) missing") }
      if failed > 0 { parts.append("\(failed) failed") }
      if !parts.isEmpty { summary += " (" + parts.joined(separator: ", ") + ")" }
      lines += ["", summary + "."]
    }
    return lines
  }

  /// The heading of one account: its address, else what it is and its id.
  static func title(_ user: AdminUser) -> String {
    if user.deleted { return "Deleted account \(user.id)" }
    if user.email.isEmpty { return (user.anonymous ? "Anonymous account " : "") + user.id }
    return user.email
  }

  /// What support asks first, in that order (values escaped by `HumanRenderer.table`). A
  /// soft-deleted account shows when it was deleted, not the hashes its fields were replaced with.
  static func userRows(_ user: AdminUser, revealTokens: Bool = false) -> [(String, String)] {
    if let deletedAt = user.deletedAt {
      return [
        ("id", user.id),
        ("deleted", "on \(deletedAt) (soft delete: its address and phone were scrambled; no sign-in works)"),
        ("created", user.createdAt ?? "unknown"), ("last sign-in", user.lastSignInAt ?? "never"),
      ]
    }
    var rows: [(String, String)] = [("id", user.id)]
    if user.anonymous, user.email.isEmpty {
      rows.append(("e-mail", "none (anonymous)"))
    } else {
      rows.append(("e-mail", user.email))
    }
    if let pending = user.pendingEmail {
      rows.append(
        (
          "pending e-mail",
          pending + " (not confirmed" + (user.emailChangeSentAt.map { "; mail sent at \($0)" } ?? "") + ")"
        ))
    }
    // An anonymous account has no address to confirm.
    if !(user.anonymous && user.email.isEmpty) {
      rows.append(("confirmed", user.confirmed ? "yes" + (user.confirmedAt.map { ", at \($0)" } ?? "") : "no"))
    }
    rows.append(("created", user.createdAt ?? "unknown"))
    rows.append(("last sign-in", user.lastSignInAt ?? "never"))
    if user.disabled {
      rows.append(("disabled", "yes" + (user.disabledUntil.map { ", until \($0)" } ?? "")))
    } else {
      rows.append(("disabled", "no"))
    }
    rows += SupportAccountRenderer.wayInRows(user)
    rows.append(("name", user.name ?? "—"))
    if let metadata = user.metadata, metadata != .null, metadata != .object(JSONObject()) {
      rows.append(("metadata", metadata.compactText))
    }
    if let claims = user.claims, claims != .object(JSONObject()) { rows.append(("claims", claims.compactText)) }
    if let phone = user.phone { rows.append(("phone", phone)) }
    if let pending = user.pendingMail {
      // The link signs its holder in: `***` for its secret unless --show-tokens.
      let mail = revealTokens ? pending : pending.redacted
      rows.append(("pending mail", "\(mail.kind) to \(mail.email)" + (mail.link.isEmpty ? "" : ": \(mail.link)")))
    }
    if let sent = user.recoverySentAt { rows.append(("recovery sent", sent)) }
    if let sent = user.confirmationSentAt { rows.append(("confirmation sent", sent)) }
    return rows
  }

  /// A table (email, id, confirmed, last sign-in, disabled), "N of TOTAL" and the next command.
  static func userPage(_ page: UserPage, invocation: Invocation, width: Int? = nil) -> [String] {
    var lines: [String] = []
    if page.users.isEmpty {
      lines.append("No accounts" + (invocation[.filter].map { " match '\(TerminalText.escape($0))'" } ?? "") + ".")
    } else {
      let header = ["EMAIL", "ID", "CONFIRMED", "LAST SIGN-IN", "DISABLED"]
      // A soft-deleted account (GoTrue lists them) keeps only an obfuscated e-mail: say what it is.
      let rows = page.users.map { user -> [String] in
        [
          user.deleted
            ? "(deleted \(user.deletedAt ?? ""))" : user.anonymous && user.email.isEmpty ? "(anonymous)" : user.email,
          user.id, user.confirmed ? "yes" : "no",
          user.lastSignInAt ?? "never",
          user.disabled ? "yes" + (user.disabledUntil.map { " until \($0)" } ?? "") : "no",
        ].map(TerminalText.escape)
      }
      lines += columns([header] + rows, width: width)
    }
    let count = page.users.count
    lines.append(page.total.map { "\(count) of \($0) accounts" } ?? "\(count) account\(count == 1 ? "" : "s")")
    if let token = page.nextPageToken {
      var words = ["authsh", "user", "list"]
      if let filter = invocation[.filter] { words += ["--filter", shellQuoted(filter)] }
      if let limit = invocation.text(of: .limit) { words += ["--limit", shellQuoted(limit)] }
      words += ["--page-token", shellQuoted(token)]
      lines.append("Next page: " + TerminalText.escape(words.joined(separator: " ")))
    }
    return lines
  }

  static func diagnosis(_ diagnosis: Diagnosis, style: Style) -> [String] {
    var lines = [
      (diagnosis.canSignIn ? style.green("✓ ") : style.red("✗ "))
        + TerminalText.escape(diagnosis.email) + ": "
        + (diagnosis.canSignIn ? "nothing in the account stops a password sign-in" : "cannot sign in with a password")
    ]
    for (index, finding) in diagnosis.findings.enumerated() {
      lines.append("\(index + 1). " + TerminalText.escape(finding.message) + style.dim(" [\(finding.code)]"))
      if let fix = finding.fix { lines.append("   fix: " + style.bold(TerminalText.escape(fix))) }
    }
    if let time = diagnosis.lastSignIn { lines.append("Last sign-in (audit trail): " + TerminalText.escape(time)) }
    if let time = diagnosis.lastRecoveryRequest {
      lines.append("Last recovery request (audit trail): " + TerminalText.escape(time))
    }
    return lines
  }

  static func audit(_ entries: [AuditEntry], width: Int? = nil) -> [String] {
    guard !entries.isEmpty else { return ["No account changes recorded."] }
    let rows = entries.map { entry in
      [
        entry.time, entry.profile, entry.command, entry.targetEmail ?? entry.targetId ?? "—",
        entry.outcome + (entry.note.map { "; " + $0 } ?? ""), entry.operatorName ?? "—",
      ].map { Self.clipped(TerminalText.escape($0)) } + [
        Self.clipped(TerminalText.escape(entry.backend), to: 4 * cellWidth)
      ]
    }
    return columns([["TIME", "PROFILE", "COMMAND", "ACCOUNT", "OUTCOME", "OPERATOR", "BACKEND"]] + rows, width: width)
  }

  /// The widest a cell of the audit table is (an entry written by an older version may hold any
  /// length): one long entry must not pad every row. The last column (the backend, unpadded) may
  /// be four times as wide.
  static let cellWidth = 64

  static func clipped(_ text: String, to width: Int = cellWidth) -> String {
    text.count > width ? String(text.prefix(width - 1)) + "…" : text
  }

  /// Left-aligned columns, two spaces apart, the last one unpadded; the first row is the header.
  /// When a row is wider than `width` (the terminal's), each row is stacked instead, as
  /// `header: value` lines with a blank line between rows.
  static func columns(_ rows: [[String]], width: Int? = nil) -> [String] {
    let count = rows.map(\.count).max() ?? 0
    let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    let lines = rows.map { row in
      row.enumerated().map { column, text in
        column == row.count - 1 ? text : text.padded(to: widths[column])
      }.joined(separator: "  ")
    }
    guard let width, let header = rows.first, rows.count > 1, lines.contains(where: { $0.count > width }) else {
      return lines
    }
    var stacked: [String] = []
    for row in rows.dropFirst() {
      if !stacked.isEmpty { stacked.append("") }
      for (column, text) in row.enumerated() where column < header.count {
        stacked.append(header[column].lowercased() + ": " + text)
      }
    }
    return stacked
  }

  /// Quoted for a POSIX shell when needed.
  static func shellQuoted(_ text: String) -> String {
    let plain = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "@._+-=:/,".contains($0) }
    return plain ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
  }
}
