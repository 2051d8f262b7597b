import AuthCore
import Essentials

struct UserHistoryCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let (provider, _) = try makeAdminProvider(invocation, context)
    let user = try await requireUser(invocation, provider, allowDeleted: true)
    context.noteEmail(user.email)
    let since = invocation[.since].map { context.clock.unixNow - $0.seconds }
    var result = CommandResult(command: invocation.spec.name)
    let lookup = UserLookup(query: try accountArgument(invocation, kind: provider.kind), user: user)
    let history = try await provider.history(user, since: since)
    result.payload = HistoryOutput(lookups: [lookup], history: history)
    if history.isEmpty {
      let window = invocation.text(of: .since).map { " in the last \($0)" } ?? ""
      result.notes.append(
        "No entries for \(user.email.isEmpty ? user.id : user.email) in the audit trail\(window). Hosted projects may send the trail"
          + " to their logs only (Logs Explorer, auth logs), which leaves it empty; failed password attempts are never in it."
      )
    }
    return result
  }
}
