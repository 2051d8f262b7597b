import Testing

@testable import ShellKit

/// Every row of the table has its command type, and no type is listed for a command that is not.
@Suite struct CommandTableHandlersTests {
  @Test func everyCommandHasAHandlerAndNothingElseDoes() {
    #expect(Set(CommandTable.handlers.keys) == Set(CommandID.allCases))
  }

  /// The rows the table places in the shell are exactly the shell's built-ins.
  @Test func theShellsRowsAreItsBuiltins() {
    let inShell = CommandTable.handlers.filter { ($0.value as? ElsewhereCommand)?.place == .shell }.keys
    #expect(Set(inShell) == Set(Repl.builtins.keys))
  }
}
