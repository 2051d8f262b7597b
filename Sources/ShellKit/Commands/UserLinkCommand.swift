import AuthCore
import Essentials

/// `user link recovery|confirm EMAIL`: a link to hand over; no mail is sent. The link is not
/// registered with the redactor: showing it is the point of the command.
struct UserLinkCommand: Command {
  let kind: AdminLinkKind

  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    try await change(invocation, context) { step, result in
      let link = try await step.provider.link(kind, for: step.user)
      result.payload = LinkOutput(lookups: [UserLookup(query: step.user.email, user: step.user)], link: link)
      return step.user
    }
  }
}
