/// Lines asked for through a password prompter with echo on (`readText`): the "type the e-mail to
/// confirm" of destructive support commands. Given the context's prompter (which pauses the
/// spinner of the command under way), the spinner pauses for this question too.
package struct EchoedLinePrompter: LinePrompter {
  private let base: any PasswordPrompter

  package init(_ base: any PasswordPrompter) { self.base = base }

  package func readLine(prompt: String) -> String? {
    guard base.readsText else { return nil }
    return base.readText(prompt: prompt)
  }
}
