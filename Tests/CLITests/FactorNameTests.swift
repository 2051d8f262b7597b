import AuthEmulator
import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// Two factors named `phone` (Firebase accepts it; GoTrue refuses the second): `mfa remove phone`
/// and `login --factor phone` are refused with the ids to choose from, never "the first one".
@Suite(.serialized) struct FactorNameTests {
  @Test func aNameTwoFactorsShareIsRefused() async throws {
    let cli = try await CLIEmulator(provider: "firebase")
    defer { Task { await cli.stop() } }
    let seed = #"{"backend":"firebase","email":"twin@example.com","password":"\#(CLIEmulator.password)"}"#
    _ = try cli.emulator.seed(EmulatorSeed.parse(seed, file: "test"))
    let signIn = try await cli.authsh("login", "twin@example.com", "--password-env", "AUTHSH_TEST_PW")
    #expect(signIn.status == 0, "\(signIn.combined)")
    var secrets: [String] = []
    for _ in 0..<2 {
      let enrolled = try await cli.authsh("mfa", "enroll", "--name", "phone", "--self-verify", "--json", "--show-tokens")
      #expect(enrolled.status == 0, "\(enrolled.combined)")
      secrets.append(try JSON.parse(enrolled.stdout)["enrollment"]?["secret"]?.string ?? "")
    }
    let login = ["login", "twin@example.com", "--password-env", "AUTHSH_TEST_PW", "--totp-secret-env", "TOTP"]
    let ambiguous = try await cli.runner.run(login + ["--factor", "phone"], extraEnvironment: ["TOTP": secrets[0]])
    #expect(ambiguous.status == 64, "\(ambiguous.combined)")
    #expect(ambiguous.stderr.contains("2 factors are named phone: give the id ("), "\(ambiguous.stderr)")
    let listed = try await cli.authsh("mfa", "list", "--json")
    let ids = (try JSON.parse(listed.stdout)["factors"]?.array ?? []).compactMap { $0["id"]?.string }
    #expect(ids.count == 2, "\(listed.combined)")
    for id in ids { #expect(ambiguous.stderr.contains(id)) }
    let byId = try await cli.runner.run(login + ["--factor", ids[0]], extraEnvironment: ["TOTP": secrets[0]])
    #expect(byId.status == 0, "\(byId.combined)")

    let remove = try await cli.authsh("mfa", "remove", "phone", "--yes")
    #expect(remove.status == 64, "\(remove.combined)")
    #expect(remove.stderr.contains("2 factors are named phone: give the id"), "\(remove.stderr)")
    let after = try await cli.authsh("mfa", "list", "--json")
    #expect((try JSON.parse(after.stdout)["factors"]?.array ?? []).count == 2, "both still there")
  }
}
