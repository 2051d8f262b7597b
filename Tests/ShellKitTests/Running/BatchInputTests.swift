import AuthCore
import AuthTestSupport
import Foundation
import JSONKit
import ShellKit
import Testing

/// Each line of `--from FILE` is taken as the EMAIL argument of the same command takes it: an
/// internationalised address (any case, composed or decomposed) is an account to look up, in a
/// list, a CSV export and one account alike; what neither takes is refused by both.
@Suite struct BatchInputTests {
  static let addresses = [
    "jürgen@bücher.example",
    "JÜRGEN@BÜCHER.EXAMPLE",
    "ju\u{308}rgen@bu\u{308}cher.example",  // NFD: u + combining diaeresis
    "δοκιμή@παράδειγμα.δοκιμή",
    "o'brien@example.com",
  ]

  @Test(arguments: addresses) func anInternationalisedAddressIsAnAccount(_ address: String) {
    #expect(BatchInput.entry(address).problem == nil)
    #expect(Validator.isAccountAddress(address))
  }

  @Test(arguments: ["ada@", "@example.com", "ada @example.com", "ada@exa\u{1B}[2Jmple.com", "ada@example.com\u{202E}"])
  func textNoAccountCanHaveIsRefused(_ text: String) {
    #expect(BatchInput.entry(text).problem == "'\(text)' is not an e-mail address.")
  }

  @Test func aCSVExportWithAnInternationalisedAddressIsABatchOfIt() async throws {
    let user = AdminUser(id: "id-j", email: "jürgen@bücher.example", confirmed: true)
    var harness = SupportHarness([user])
    // As `user export --format csv` writes it.
    harness = harness.with {
      $0.openInputLines = { _ in
        TextLines("id,email,email_verified,display_name\nid-j,jürgen@bücher.example,true,Jürgen\n")
      }
    }
    let result = try await harness.run("user disable --from uni.csv --dry-run")
    #expect(result.error == nil, "\(String(describing: result.error))")
    #expect(result.batch?["outcomes"]?["would_change"]?.int == 1)
    #expect(harness.provider.calls == ["user jürgen@bücher.example"])
  }

  @Test func theEMAILArgumentAndAListLineAreJudgedAlike() async throws {
    for text in ["ada@", "ada @example.com"] {
      var harness = SupportHarness([SupportHarness.user(1)])
      let one = try await harness.run("user disable '\(text)' --yes")
      #expect(one.error?.code == .validationFailed)
      #expect(one.error?.message == "'\(text)' is not an e-mail address.")
      harness = harness.with { $0.openInputLines = { _ in TextLines(text + "\n") } }
      let batch = try await harness.run("user disable --from list.txt --yes")
      #expect(batch.batch?["codes"]?["validation_failed"]?.int == 1)
      #expect(harness.provider.calls.isEmpty)
    }
  }
}
