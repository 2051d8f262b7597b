import AuthCore
import Essentials

/// `audit [EMAIL] [--since DURATION]`: the local log of changes, oldest first; only those to
/// one account (its e-mail address or id) when EMAIL is given.
struct AuditCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let since = invocation[.since].map { context.clock.unixNow - $0.seconds }
    var result = CommandResult(.audit)
    guard let log = context.auditLog else {
      result.payload = AuditOutput(entries: [])
      return result
    }
    let account = invocation[.auditUser]?.trimmingWhitespace
    // Streamed: only the lines about the account (and the numbers of unreadable ones) are kept.
    var read = AuditRead(entries: [])
    try log.scanNewestFirst { entry, number in
      guard let entry else {
        read.unreadableLines.append(number)
        return true
      }
      if let since, let time = UnixTime.parseISO(entry.time), time < since { return true }
      if let account, !entry.concerns(account) { return true }
      read.entries.append(entry)
      return true
    }
    read.entries.reverse()
    read.unreadableLines.reverse()
    let wanted = read.entries
    // The backend in use, when one is set: its lines only (support staff on production must not
    // read staging's deletions as production's).
    let backend = invocation[.allBackends] ? nil : (try? target(invocation, context)).map { BackendKey($0).canonical }
    let shown = wanted.filter { backend == nil || $0.backend == backend }
    result.payload = AuditOutput(entries: shown)
    let others = wanted.count - shown.count
    if let backend, others > 0 {
      let unnamed = wanted.filter(\.backend.isEmpty).count
      let older = unnamed == 0 ? "" : " (\(unnamed) of them written by an older authsh, which names no backend)"
      result.notes.append(
        "\(others) line\(others == 1 ? "" : "s") about other backends \(others == 1 ? "is" : "are") not shown\(older): only \(backend)'s are; --all-backends shows every line."
      )
    }
    if !read.unreadableLines.isEmpty {
      let count = read.unreadableLines.count
      let numbers = read.unreadableLines.prefix(10).map(String.init).joined(separator: ", ") + (count > 10 ? ", …" : "")
      result.notes.append(
        "warning: \(count) line\(count == 1 ? "" : "s") of the audit log could not be read and \(count == 1 ? "is" : "are") not shown (line\(count == 1 ? "" : "s") \(numbers))"
      )
    }
    return result
  }
}
