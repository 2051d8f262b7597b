import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Providers
import Testing

/// `user export` on Firebase against recorded production answers: `accounts:batchGet` pages with
/// each account's `passwordHash`/`salt` (web-safe base64), and the admin v2 project config's
/// `signIn.hashConfig`, which together make GoTrue's `$fbscrypt$` strings.
@Suite struct FirebaseExportReplayTests {
  typealias Replay = FirebaseAdminReplayTests
  static let config = "/identitytoolkit.googleapis.com/admin/v2/projects/\(Replay.project)/config"
  static let signerKey = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/QA=="
  /// Ada's hash and salt from the page, in the standard alphabet GoTrue decodes.
  static let adaHash =
    "$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=\(signerKey)$C0sHCg9ek77hsg==$"
    + "0U0ZVzfUGtauzOIifQpM4+4Q4IVBuEk/BHE4wVu3NmOdjvDs8GgA2o5DaO5zFHKslNHTFAh3/Nrp2AFZLf4Q4g=="

  static func pages(_ rig: Replay.Rig, last: String = "admin_export_page3.json") {
    rig.server.on("GET", Replay.accounts("batchGet")) { request in
      let page: String
      switch request.query("nextPageToken") {
      case nil: page = "admin_export_page1.json"
      case "AAAAAAAAABQwQnE3eDJZdEc1aFprUDFzV21SOWNWbkwzZUo0": page = "admin_export_page2.json"
      default: page = last
      }
      return ServerResponse(
        status: 200, headers: [("Content-Type", "application/json")], body: Array(Replay.fixture(page).utf8))
    }
  }

  static func readAll(_ reader: any AccountReader) async throws -> [PortableAccount] {
    var all: [PortableAccount] = []
    var token: String?
    repeat {
      let page = try await reader.page(after: token, size: 1000)
      all += page.accounts
      token = page.next
    } while token != nil
    return all
  }

  @Test func hashesBecomeGoTrueStringsWithTheProjectsHashConfig() async throws {
    let rig = try await Replay.Rig()
    Self.pages(rig)
    rig.answer(Self.config, "admin_config_hash.json", method: "GET")
    let reader = try await rig.admin.accountReader(hashConfig: nil)
    let accounts = try await Self.readAll(reader)
    #expect(await reader.notices.isEmpty)
    #expect(accounts.map(\.email) == ["ada@example.com", "grace@example.com", "linus@example.org"])
    let ada = accounts[0]
    #expect(ada.passwordHash == Self.adaHash)
    #expect(ada.passwordNote == nil)
    #expect(ada.providers == ["password", "google.com"])
    #expect(
      ada.identities?[1]
        == PortableIdentity(provider: "google.com", id: "104857600000000000001", email: "ada@example.com"))
    #expect(ada.value(of: "app_metadata") == ["claims": ["role": "admin", "tier": 2]])
    #expect(ada.factors == [PortableFactor(id: "a1b2c3d4-totp", type: "totp", friendlyName: "phone app")])
    #expect(ada.createdAt == "2026-01-01T00:00:00Z" || ada.createdAt?.hasPrefix("2026-01-01T00:00:00") == true)
    #expect(ada.emailVerified == true && ada.source == "firebase")
    let grace = accounts[1]
    #expect(grace.passwordHash == nil && grace.passwordNote == nil, "no password, nothing to explain")
    let linus = accounts[2]
    #expect(linus.disabled == true && linus.phone == "+15555550123")
    #expect(
      linus.passwordHash?.hasSuffix(
        "$oaKjpKWmp6ipqg==$dTzzqGRht3qGsF4owr5zA6RPO7+GqKk4Bm0A6GFjyA5x5BJtpKde6DUaZQTZM5u8FghXLWOdtURKkvbkCnqXGQ==")
        == true)
    // Pages of 1,000 with the token of the page before, as the Admin SDKs ask.
    let asked = rig.server.requests.filter { $0.path == Replay.accounts("batchGet") }
    #expect(asked.map { $0.query("maxResults") } == ["1000", "1000", "1000"])
    #expect(asked.first?.header("Authorization") == "Bearer " + Replay.token)
  }

  @Test func aHashConfigFileStandsInForTheProjects() async throws {
    let rig = try await Replay.Rig()
    Self.pages(rig)
    let given = FirebaseHashConfig(signerKey: Self.signerKey, saltSeparator: "Bw==", rounds: 8, memoryCost: 14)
    let accounts = try await Self.readAll(try await rig.admin.accountReader(hashConfig: given))
    #expect(accounts[0].passwordHash == Self.adaHash)
    #expect(!rig.server.requests.contains { $0.path == Self.config }, "the project config is not read")
  }

  @Test func withoutTheSignerKeyTheRecordsSayWhy() async throws {
    let rig = try await Replay.Rig()
    Self.pages(rig)
    // Production's config for a caller that may not read the keys: rounds and memory cost only.
    rig.answer(Self.config, "admin_config.json", method: "GET")
    let reader = try await rig.admin.accountReader(hashConfig: nil)
    let accounts = try await Self.readAll(reader)
    #expect(accounts[0].passwordHash == nil)
    #expect(accounts[0].passwordNote?.contains("signer key") == true)
    #expect(accounts[0].passwordNote?.contains("--hash-config FILE") == true)
    #expect(await reader.notices.first?.contains("password_hash null") == true)
  }

  @Test func aRedactedHashIsSaidToBeOne() async throws {
    let rig = try await Replay.Rig()
    rig.answer(Replay.accounts("batchGet"), "admin_batchGet_page2.json", method: "GET")
    rig.answer(Self.config, "admin_config_hash.json", method: "GET")
    let accounts = try await Self.readAll(try await rig.admin.accountReader(hashConfig: nil))
    #expect(accounts.count == 1 && accounts[0].passwordHash == nil)
    #expect(accounts[0].passwordNote?.contains("REDACTED") == true)
  }

  @Test func aRepeatedPageTokenStopsTheExport() async throws {
    let rig = try await Replay.Rig()
    // The third page hands back the second page's token again.
    Self.pages(rig, last: "admin_export_page2.json")
    rig.answer(Self.config, "admin_config_hash.json", method: "GET")
    let reader = try await rig.admin.accountReader(hashConfig: nil)
    let error = await Replay.failure { _ = try await Self.readAll(reader) }
    #expect(error?.code == .malformedResponse)
    #expect(error?.message.contains("repeated a page token") == true)
  }
}
