/// Lines asked for through the context's password prompter with echo on (`readText`): the
/// "type the e-mail to confirm" of destructive support commands. Read at the time of asking, so a
/// spinner-pausing wrapper put around the password prompter pauses for this question too.
package final class ContextLinePrompter: LinePrompter, Sendable {
  private weak let context: ShellContext?

  package init(_ context: ShellContext) { self.context = context }

  package func readLine(prompt: String) -> String? {
    guard let prompter = context?.passwordPrompter, prompter.readsText else { return nil }
    return prompter.readText(prompt: prompt)
  }
}
