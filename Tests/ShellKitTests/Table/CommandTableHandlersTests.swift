import Testing

@testable import ShellKit

/// Every row of the table has its command type, and no type is listed for a command that is not.
@Suite struct CommandTableHandlersTests {
  @Test func everyCommandHasAHandlerAndNothingElseDoes() {
    #expect(Set(CommandTable.handlers.keys) == Set(CommandID.allCases))
  }
}
