import AuthCore
import JSONKit
import Testing

@testable import AuthScript

/// `cleanup` blocks: parsed as a statement of their own, run after every test (a failing one
/// too), every line run even after one failed, and reported only when they fail.
@Suite struct CleanupTests {
  @Test func theCleanupBlockRunsAfterTheTestsEvenAfterAFailure() async {
    let harness = RunHarness(
      """
      secret pw = "correct-horse-1"
      test "fails"
      signup a@example.com --password {{pw}}
      assert user.email == "b@example.com"

      cleanup
      echo cleaning up
      logout

      test "passes"
      echo second test
      """)
    let outcome = await harness.run()
    let sent = harness.backend.commands.filter { $0 != "echo" }
    #expect(outcome.exit == 1)
    #expect(outcome.out.hasSuffix("\n1 passed, 1 failed\n"), "the passing cleanup is not a test: \(outcome.out)")
    #expect(sent == ["signup", "logout"], "the block ran after both tests")
  }

  @Test func aFailingCleanupRunsEveryLineAndIsReported() async {
    let harness = RunHarness(
      """
      test "passes"
      echo hello
      cleanup
      login nobody@down.test --password wrong-password-1
      logout
      """)
    let outcome = await harness.run()
    let sent = harness.backend.commands.filter { $0 != "echo" }
    #expect(outcome.exit == 3, "an outage in cleanup is an error: \(outcome.out)")
    #expect(outcome.out.contains("cleanup"))
    #expect(sent == ["login", "logout"], "the line after the failure still ran")
  }

  @Test func cleanupStandsAlone() {
    let (_, diagnostics) = Parser.parse(SourceFile(name: "x.auth", path: "/x.auth", text: "cleanup now\n"))
    #expect(diagnostics.map(\.title) == ["unexpected 'now' after 'cleanup'"])
  }
}

@Suite struct DataTableTests {
  @Test func csvRowsAreTypedLikeVarAndNumberedFromOne() throws {
    let table = try DataTable.load(
      path: "t.csv", text: "email,n,note\n\"a,b@example.com\",42,\"say \"\"hi\"\"\"\n\nc@example.com,7,\n")
    #expect(table.rows.map(\.number) == [1, 2])
    #expect(table.rows[0].variables == ["email": "a,b@example.com", "n": 42, "note": "say \"hi\""])
    #expect(table.rows[1].variables["n"] == 7)
  }

  /// As spreadsheets save it: a byte-order mark first, CRLF line ends, a line break inside quotes.
  @Test func aSpreadsheetsCSVReadsTheSame() throws {
    let table = try DataTable.load(path: "t.csv", text: "\u{FEFF}email,note\r\na@example.com,\"two\r\nlines\"\r\n")
    #expect(table.rows.count == 1)
    #expect(table.rows[0].variables == ["email": "a@example.com", "note": "two\r\nlines"])
  }

  @Test func jsonLinesKeepTheirTypes() throws {
    let table = try DataTable.load(
      path: "t.jsonl",
      text: "{\"email\": \"a@example.com\", \"admin\": true}\n\n{\"email\": \"b@example.com\", \"admin\": false}\n")
    #expect(table.rows.count == 2)
    #expect(table.rows[0].variables["admin"] == true)
  }

  @Test(arguments: [
    ("t.csv", "n\n", "has no rows"), ("t.csv", "n,m\n1\n", "row 1 has 1 fields, the header 2"),
    ("t.csv", "first name\nAda\n", "is not a variable name"), ("t.jsonl", "[1]\n", "t.jsonl:1 is not a JSON object"),
    ("t.csv", "n\n\"open\n", "is not CSV: the CSV ends inside a quoted field"),
  ])
  func badTablesSayWhatIsWrong(_ path: String, _ text: String, _ message: String) {
    #expect(throws: DataTable.LoadError.self) { try DataTable.load(path: path, text: text) }
    do {
      _ = try DataTable.load(path: path, text: text)
    } catch {
      #expect(error.message.contains(message), "\(error.message)")
    }
  }
}
