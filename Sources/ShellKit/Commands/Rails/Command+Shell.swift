import AuthCore

extension Command {
  /// Makes `connection` the shell's when it resolves to a target; otherwise the shell keeps the
  /// one it had and the error says so.
  func switchTo(_ connection: ConnectionFlags, _ context: ShellContext) throws {
    let previous = context.connection
    context.connection = connection
    do {
      _ = try context.target()
    } catch var error as AuthError {
      context.connection = previous
      if let kept = try? context.target() {
        let note = "The shell still uses \(kept.provider.rawValue):\(kept.profile)."
        error.hint = error.hint.map { $0 + " " + note } ?? note
      }
      throw error
    }
  }
}
