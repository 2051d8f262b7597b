import AuthEmulator
import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// A lookup that failed never reads as a pass or as "no such account": only an answer that proves
/// absence says there is none; otherwise "could not determine", and why.
@Suite(.serialized) struct SupportLookupFailureTests {
  static func script(_ cli: CLIEmulator, _ text: String) async throws -> BinaryRunner.Outcome {
    let file = cli.runner.home + "/lookup.auth"
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return try await cli.runner.run(["run", file], timeout: 120)
  }

  @Test func anExpectOkAfterAFailedLookupIsAnErrorOrAFailure() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase", accounts: 1)) { cli in
      let missing = try await Self.script(cli, "test \"missing\"\nuser show nobody@example.com\nexpect ok\n")
      #expect(missing.status == 1, "a missing account fails the test: \(missing.combined)")
      let found = try await Self.script(cli, "test \"found\"\nuser show found0@example.com\nexpect ok\n")
      #expect(found.status == 0, "\(found.combined)")
      cli.emulator.faults.append(EmulatorFault(method: "GET", path: "/auth/v1/admin/users", times: 0, preset: .html502))
      let outage = try await Self.script(cli, "test \"outage\"\nuser show found0@example.com\nexpect ok\n")
      #expect(outage.status == 3, "a 502 makes the test an error: \(outage.combined)")
      let oneShot = try await cli.runner.run(["user", "show", "found0@example.com", "--json"])
      #expect(oneShot.status == 3)
      let json = try SupportOutputTests.json(oneShot.stdout)
      #expect(json["ok"]?.bool == false)
      let message = json["users"]?[0]?["error"]?["message"]?.string ?? ""
      #expect(message.hasPrefix("Could not determine whether found0@example.com has an account"), "\(message)")
    }
  }

  @Test func aSupabaseAddressContainedInThousandsOfOthersIsStillFound() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase")) { cli in
      // The account first (oldest, so last in GoTrue's newest-first pages), then 5,050 addresses
      // that contain it: the substring filter answers all of them.
      _ = try cli.emulator.seed(
        EmulatorSeed.parse(#"{"backend":"supabase","email":"a@bigco.com","password":"correct-horse-1"}"#, file: "a"))
      let others = (0..<5050).map { #"{"backend":"supabase","email":"x\#($0)a@bigco.com"}"# }
      _ = try cli.emulator.seed(EmulatorSeed.parse(others.joined(separator: "\n"), file: "others"))
      let show = try await cli.runner.run(["user", "show", "a@bigco.com", "--json"], timeout: 120)
      #expect(show.status == 0, "\(show.combined.prefix(500))")
      #expect(try SupportOutputTests.json(show.stdout)["user"]?["email"]?.string == "a@bigco.com")
      let diagnose = try await cli.runner.run(["diagnose", "a@bigco.com", "--json"], timeout: 120)
      #expect(!diagnose.stdout.contains("no_account"), "\(diagnose.stdout.prefix(500))")
      let disable = try await cli.runner.run(["user", "disable", "a@bigco.com", "--yes", "--json"], timeout: 120)
      #expect(disable.status == 0, "\(disable.combined.prefix(500))")
      let missing = try await cli.runner.run(["user", "show", "b@bigco.com"], timeout: 120)
      #expect(missing.status == 1)
    }
  }

  @Test func aFirebaseAnswerWhoseUsersIsNotAListIsMalformed() async throws {
    try await withStarted(SupportOutputTests.emulator("firebase", accounts: 1)) { cli in
      let path = "/identitytoolkit.googleapis.com/v1/projects/\(cli.emulator.config.project)/accounts:lookup"
      cli.emulator.faults.append(
        EmulatorFault(method: "POST", path: path, times: 0, status: 200, json: ["users": "str"]))
      let outcome = try await cli.runner.run(["user", "show", "found0@example.com", "--json"])
      #expect(outcome.status == 3, "\(outcome.combined)")
      let json = try SupportOutputTests.json(outcome.stdout)
      #expect(json["users"]?[0]?["error"]?["code"]?.string == "malformed_response", "\(outcome.stdout)")
      #expect(json["users"]?[0]?["error"]?["message"]?.string?.hasPrefix("Could not determine") == true)
      let diagnose = try await cli.runner.run(["diagnose", "found0@example.com", "--json"])
      #expect(diagnose.status == 3, "not 'no account': \(diagnose.combined)")
    }
  }

  @Test func anAnswerOverFourMegabytesSaysWhy() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase", accounts: 1)) { cli in
      let huge = "{\"users\":[" + String(repeating: " ", count: 5 << 20) + "]}"
      cli.emulator.faults.append(
        EmulatorFault(method: "GET", path: "/auth/v1/admin/users", times: 0, status: 200, body: huge))
      let outcome = try await cli.runner.run(["user", "show", "found0@example.com"])
      #expect(outcome.status == 3, "\(outcome.combined)")
      #expect(outcome.combined.contains("larger than 4 MB"), "\(outcome.combined)")
      #expect(!outcome.combined.contains("no such account"))
    }
  }
}
