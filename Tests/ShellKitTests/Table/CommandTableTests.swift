import AuthCore
import ShellKit
import Testing

/// The table itself: one row per command identity, and what each support command does to an
/// account declared in its row.
@Suite struct CommandTableTests {
  @Test func everyCommandIdentityHasExactlyOneRow() {
    for id in CommandID.allCases {
      #expect(CommandTable.all.filter { $0.id == id }.count == 1, "\(id.rawValue)")
      #expect(CommandTable.spec(id).words == id.words)
    }
    #expect(CommandTable.all.count == CommandID.allCases.count)
  }

  @Test func everyCommandThatTalksToAnAdminAPIDeclaresWhatItDoesToTheAccount() {
    for spec in CommandTable.all where spec.group == .support && spec.id != .audit {
      #expect(spec.access != .none, "\(spec.name) must say whether it reads, grants, changes or destroys")
    }
    for spec in CommandTable.all where spec.group != .support { #expect(spec.access == .none, "\(spec.name)") }
  }

  @Test func linksGrantAccessAndSoAreRefusedConfirmedAndAudited() {
    for id in [CommandID.userLinkRecovery, .userLinkConfirm, .userSetPassword] {
      let access = CommandTable.spec(id).access
      #expect(access == .grant)
      #expect(access.refusedWhenReadonly && access.needsConfirmation && access.isAudited)
    }
    #expect(!AccountAccess.read.refusedWhenReadonly && !AccountAccess.read.isAudited)
    #expect(AccountAccess.change.isAudited && !AccountAccess.change.needsConfirmation)
  }

  @Test func commandsThatAskForConfirmationTakeYes() {
    for spec in CommandTable.all where spec.access.needsConfirmation {
      #expect(spec.accepts("--yes"), "\(spec.name) asks on a terminal, so it needs --yes without one")
    }
  }
}

extension CommandSpec: CustomTestStringConvertible {
  package var testDescription: String { name }
}
