import AuthCore
import Essentials

struct UserListCommand: Command {
  /// Only a filter reads pages to scan (`--filter` on Firebase, a phone number on Supabase).
  func live(_ invocation: Invocation) -> LiveOutput? { invocation.given(.filter) ? .scan : nil }

  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let limit = invocation[.limit] ?? 50
    let typed = invocation[.filter].map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
    // A phone number as typed (`+1 555 123-4567`) is matched as its digits.
    let filter = typed.map { UserReference.e164($0) ?? $0 }
    let (provider, _) = try makeAdminProvider(invocation, context)
    var result = CommandResult(.userList)
    var query = UserListQuery(
      filter: filter, limit: limit, pageToken: invocation[.pageToken], maxPages: invocation[.maxPages])
    query.scanProgress = io.scanProgress
    let page = try await provider.listUsers(query)
    result.payload = UserPageOutput(page: page)
    if let stopped = page.stoppedScan {
      let found = stopped.matches == 1 ? "1 match" : "\(stopped.matches) matches"
      result.notes.append(
        "Stopped after \(stopped.pages) page\(stopped.pages == 1 ? "" : "s") (--max-pages): \(stopped.scanned) accounts scanned, \(found)"
          + (page.nextPageToken == nil ? "." : "; the next page goes on from there."))
    }
    return result
  }
}
