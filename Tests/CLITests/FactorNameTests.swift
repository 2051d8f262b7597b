import AuthEmulator
import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// Two factors named `phone` (Firebase accepts it; GoTrue refuses the second): `mfa remove phone`
/// and `login --factor phone` are refused with the ids to choose from, never "the first one".
@Suite(.serialized) struct FactorNameTests {
  @Test func aNameTwoFactorsShareIsRefused() async throws {
    try await withStarted(CLIEmulator(provider: "firebase")) { cli in
      // Names match ignoring case: "phone" names both (mfa enroll refuses a name already taken,
      // so the pair is seeded).
      let secrets = ["JBSWY3DPEHPK3PXP", "KRSXG5CTMVRXEZLU"]
      let seed =
        #"{"backend":"firebase","email":"twin@example.com","password":"\#(CLIEmulator.password)","factors":[{"name":"phone","secret":"\#(secrets[0])","verified":true},{"name":"Phone","secret":"\#(secrets[1])","verified":true}]}"#
      _ = try cli.emulator.seed(EmulatorSeed.parse(seed, file: "test"))
      let login = ["login", "twin@example.com", "--password-env", "AUTHSH_TEST_PW", "--totp-secret-env", "TOTP"]
      let ambiguous = try await cli.runner.run(login + ["--factor", "phone"], extraEnvironment: ["TOTP": secrets[0]])
      #expect(ambiguous.status == 64, "\(ambiguous.combined)")
      #expect(ambiguous.stderr.contains("2 factors are named phone: give the id ("), "\(ambiguous.stderr)")
      // The ids offered are the factors' ids: one of them signs in.
      let offered =
        ambiguous.stderr.components(separatedBy: "give the id (").last?.components(separatedBy: ")").first ?? ""
      let ids = offered.components(separatedBy: ", ")
      #expect(ids.count == 2, "\(ambiguous.stderr)")
      var byId = try await cli.runner.run(login + ["--factor", ids[0]], extraEnvironment: ["TOTP": secrets[0]])
      if byId.status != 0 {
        byId = try await cli.runner.run(login + ["--factor", ids[1]], extraEnvironment: ["TOTP": secrets[0]])
      }
      #expect(byId.status == 0, "\(byId.combined)")
      let listed = try await cli.authsh("mfa", "list", "--json")
      #expect(
        Set((try JSON.parse(listed.stdout)["factors"]?.array ?? []).compactMap { $0["id"]?.string }) == Set(ids),
        "\(listed.combined)")

      let remove = try await cli.authsh("mfa", "remove", "phone", "--yes")
      #expect(remove.status == 64, "\(remove.combined)")
      #expect(remove.stderr.contains("2 factors are named phone: give the id"), "\(remove.stderr)")
      let after = try await cli.authsh("mfa", "list", "--json")
      #expect((try JSON.parse(after.stdout)["factors"]?.array ?? []).count == 2, "both still there")
    }
  }
}
