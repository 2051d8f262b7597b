import AuthCore
import Testing

@testable import ShellKit

@Suite("login --phone: the number, and the flags in the command table")
struct PhoneSignInTests {
  @Test("E.164 with spaces, dashes and parentheses dropped; anything else is a usage error naming the flag")
  func numbers() throws {
    #expect(try LogInCommand.phoneNumber("+1 (555) 123-4567", flag: "--phone") == "+15551234567")
    #expect(try LogInCommand.phoneNumber(" +447700900123 ", flag: "--phone") == "+447700900123")
    for bad in ["555-1234", "15551234567", "+0123456789", "+1555", "+1555123456789012", "+1555abc4567"] {
      #expect {
        try LogInCommand.phoneNumber(bad, flag: "--phone")
      } throws: { error in
        guard let error = error as? AuthError else { return false }
        return error.code == .usage && error.message.contains("--phone") && error.message.contains("E.164")
      }
    }
  }

  @Test("login takes --phone and --send-only; --code is secret, so the line stays out of the history")
  func table() throws {
    let login = CommandTable.spec(.login)
    let names = login.flags.map(\.name)
    #expect(names.contains("--phone") && names.contains("--send-only") && names.contains("--code"))
    #expect(login.flags.first { $0.name == "--code" }?.isSecret == true)
    #expect(login.flags.first { $0.name == "--phone" }?.isSecret == false)
    #expect(login.discussion.contains("--phone NUMBER"))
  }
}
