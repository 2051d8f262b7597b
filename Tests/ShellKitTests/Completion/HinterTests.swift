import Testing

@testable import ShellKit

@Suite("Argument hints")
struct HinterTests {
  @Test func afterTheCommandWord() {
    #expect(
      Hinter.hint(linePrefix: "login ")
        == "[EMAIL] [--password VALUE] [--password-env VAR] [--remember] [--no-save] [--code CODE] [--code-env VAR] "
        + "[--totp-secret-env VAR] [--factor ID|NAME] [--link] [--phone NUMBER] [--send-only] "
        + "[--custom-token TOKEN] [--custom-token-env VAR] [--oauth PROVIDER]")
    #expect(Hinter.hint(linePrefix: "inbox ") == "EMAIL")
    #expect(Hinter.hint(linePrefix: "reset ") == "confirm… [EMAIL]")
  }

  /// `user ` and `user link ` are groups without a command of their own: the hint names the
  /// words that can follow, as Tab would complete them.
  @Test func commandGroupsHintTheirSubcommands() {
    let user = Hinter.hint(linePrefix: "user ")
    #expect(user?.hasPrefix("show|list|link|") == true, "\(String(describing: user))")
    #expect(user?.contains("set-password") == true)
    #expect(Hinter.hint(linePrefix: "user link ") == "recovery|confirm|invite")
    #expect(Hinter.hint(linePrefix: "user mfa ") == "reset")
  }

  @Test func givenArgumentsAndFlagsDropOut() {
    #expect(
      Hinter.hint(linePrefix: "login ada@example.com --remember ")
        == "[--password VALUE] [--password-env VAR] [--no-save] [--code CODE] [--code-env VAR] [--totp-secret-env VAR] "
        + "[--factor ID|NAME] [--link] [--phone NUMBER] [--send-only] [--custom-token TOKEN] [--custom-token-env VAR] "
        + "[--oauth PROVIDER]")
    #expect(Hinter.hint(linePrefix: "inbox ada@example.com ") == nil)
  }

  @Test func aFlagWaitingForItsValue() {
    #expect(Hinter.hint(linePrefix: "logout --scope ")?.hasPrefix("local|global|others  ") == true)
    #expect(Hinter.hint(linePrefix: "signup a@b.co --name ")?.hasPrefix("NAME  ") == true)
  }

  @Test func nothingWhileAWordIsTypedOrForUnknownCommands() {
    #expect(Hinter.hint(linePrefix: "login ad") == nil)
    #expect(Hinter.hint(linePrefix: "frob ") == nil)
    #expect(Hinter.hint(linePrefix: "") == nil)
    #expect(Hinter.hint(linePrefix: "completion ") == nil)
  }
}
