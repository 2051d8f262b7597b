import AuthCore
import AuthTestSupport
import Essentials
import Foundation
import JSONKit
import Testing

/// The fidelity ledger: its documentation is the table of docs/moving-accounts.md, and for generated
/// accounts whatever the target's request leaves out of an account is named (held back or counted),
/// never silent.
@Suite struct FidelityLedgerTests {
  @Test func theMovingAccountsPageCarriesTheLedgersTableAsGenerated() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let page = try String(contentsOf: root.appendingPathComponent("docs/moving-accounts.md"), encoding: .utf8)
    let markers = FidelityLedger.docsMarkers
    let begin = try #require(page.range(of: markers.begin + "\n"), "docs/moving-accounts.md has no ledger table")
    let end = try #require(page.range(of: markers.end, range: begin.upperBound..<page.endIndex))
    let committed = String(page[begin.upperBound..<end.lowerBound])
    #expect(
      committed == FidelityLedger.markdownTable() + "\n",
      "The table in docs/moving-accounts.md drifted from the ledger: paste `authsh __ledger` between the markers")
  }

  @Test func everyFieldHasRulesForBothTargets() {
    for field in PortableField.allCases {
      for target in [ProviderKind.firebase, .supabase] {
        #expect(!FidelityLedger.rules(field, into: target).isEmpty, "\(field) into \(target)")
      }
    }
    #expect(FidelityLedger.helpText().contains("phone confirmation into Firebase"))
  }

  /// Seeded: the same seed gives the same accounts (`AUTHSH_LEDGER_SEED` runs another, printed).
  @Test func nothingTheRequestLeavesOutGoesUnnamed() throws {
    let seed = ProcessInfo.processInfo.environment["AUTHSH_LEDGER_SEED"].flatMap { UInt64($0) } ?? 46
    var random = SplitMix64(seed: seed)
    let now = 1_800_000_000
    for round in 0..<2_000 {
      let account = Self.generated(&random, now: now)
      for target in [ProviderKind.firebase, .supabase] {
        let check = ImportCheck(account, target: target, consent: ImportConsent(), now: now)
        let losses = Set(check.losses)
        let context = "seed \(seed) round \(round) into \(target): \(account)"
        // Unknown second factors, or listed ones, are never carried in silence.
        if account.factors?.isEmpty == false {
          #expect(check.heldBack?.contains("--drop-factors") == true, "\(context)")
        }
        if account.factors == nil { #expect(losses.contains(.factorsUnknown), "\(context)") }
        let phone = account.phone.flatMap(PortableAccount.e164)
        if target == .firebase {
          let entry = AccountImportPlan.firebaseEntry(account, localId: account.id ?? "x", now: now).entry
          if phone != nil, entry["phoneNumber"] == nil { #expect(losses.contains(.phoneUnconfirmed), "\(context)") }
          if phone != nil, entry["phoneNumber"] != nil { #expect(account.phoneConfirmed == true, "\(context)") }
          if account.appMetadata?["claims"] != nil, entry["customAttributes"] == nil {
            #expect(losses.contains(.claims), "\(context)")
          }
          if case .until? = account.ban(at: now) { #expect(losses.contains(.banEnd), "\(context)") }
          #expect((entry["disabled"] != nil) == (account.ban(at: now) != nil), "\(context)")
          #expect(entry["photoUrl"]?.string == account.photoURL, "\(context)")
        } else {
          let body = AccountImportPlan.supabaseBody(account, now: now).body
          if phone != nil {
            #expect(body["phone_confirm"]?.bool == (account.phoneConfirmed == true), "\(context)")
            if account.phoneConfirmed == nil { #expect(losses.contains(.phoneUnconfirmed), "\(context)") }
          }
          if account.createdAt != nil { #expect(losses.contains(.timestamps), "\(context)") }
          if let photo = account.photoURL {
            #expect(body["user_metadata"]?["avatar_url"]?.string == photo, "\(context)")
          }
          switch account.ban(at: now) {
          case .forever?: #expect(body["ban_duration"]?.string == AccountImportPlan.disabledBan, "\(context)")
          case .until(let end)?: #expect(body["ban_duration"]?.string == "\(end - now)s", "\(context)")
          case nil: #expect(body["ban_duration"] == nil, "\(context)")
          }
        }
      }
    }
  }

  /// One account of a product of each field's variants, picked by `random`.
  static func generated(_ random: inout SplitMix64, now: Int) -> PortableAccount {
    func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    var account = PortableAccount(id: pick([nil, "uid-\(random.next() % 1000)", UUID().uuidString.lowercased()]))
    account.email = pick([nil, "user\(random.next() % 1000)@example.com"])
    account.emailVerified = pick([nil, true, false])
    account.phone = pick([nil, "+1555\(1_000_000 + random.next() % 8_999_999)", "not a number"])
    account.phoneConfirmed = pick([nil, true, false])
    account.displayName = pick([nil, "Ada", "Smith, \"Jo\"\nX"])
    account.photoURL = pick([nil, "https://example.com/a.png"])
    account.disabled = pick([nil, true, false])
    account.bannedUntil = pick([nil, "2000-01-01T00:00:00Z", CivilTime.iso8601(seconds: now + 3600)])
    account.createdAt = pick([nil, "2024-01-01T00:00:00Z"])
    account.userMetadata = pick([nil, JSONObject([("plan", "pro")])])
    let longClaims = JSONObject([("blob", .string(String(repeating: "x", count: 1200)))])
    account.appMetadata = pick([
      nil, JSONObject([("claims", .object(JSONObject([("admin", true)])))]),
      JSONObject([("claims", .object(longClaims))]),
    ])
    account.factors = pick([nil, [], [PortableFactor(id: "f1", type: "totp")]])
    account.source = pick([nil, "firebase", "supabase"])
    account.passwordHash = pick([nil, "$2a$10$" + String(repeating: "a", count: 53)])
    account.invitedAt = pick([nil, "2024-01-01T00:00:00Z"])
    return account
  }
}

/// Each defect of the readers that the ledger's round trips found, as a named regression.
@Suite struct LedgerReaderRegressionTests {
  static let usersHeader =
    "instance_id,id,aud,role,email,encrypted_password,email_confirmed_at,invited_at,created_at,raw_app_meta_data,"
    + "raw_user_meta_data,phone,phone_confirmed_at,banned_until,deleted_at"

  static func copyRow(
    id: String, email: String, hash: String = "", confirmed: String = "2024-01-02 03:04:05+00", invited: String = "",
    phone: String = "", phoneConfirmed: String = "", banned: String = ""
  ) -> String {
    let app = #""{""provider"":""email"",""providers"":[""email""]}""#
    return
      ",\(id),authenticated,authenticated,\(email),\(hash),\(confirmed),\(invited),2024-01-01 00:00:00+00,\(app),{},"
      + "\(phone),\(phoneConfirmed),\(banned),"
  }

  static let bcrypt = "$2a$04$abcdefghijklmnopqrstuu1234567890123456789012345678901"

  @Test func aCopysPermanentBanIsABanAndMinusInfinityIsNone() throws {
    let text = [
      Self.usersHeader,
      Self.copyRow(
        id: "11111111-1111-4111-8111-111111111111", email: "ada@example.com", hash: Self.bcrypt, banned: "infinity"),
      Self.copyRow(
        id: "22222222-2222-4222-8222-222222222222", email: "bob@example.com", hash: Self.bcrypt, banned: "-infinity"),
    ].joined(separator: "\n")
    let (_, accounts) = try PortableAccountReader.read(text + "\n")
    #expect(accounts[0].ban(at: 1_800_000_000) == .forever)
    #expect(accounts[1].ban(at: 1_800_000_000) == nil)
    let body = AccountImportPlan.supabaseBody(accounts[0], now: 1_800_000_000).body
    #expect(body["ban_duration"]?.string == AccountImportPlan.disabledBan)
  }

  @Test func aCopysUnconfirmedPhoneStaysUnconfirmedAndItsFactorsAreUnknown() throws {
    let text = [
      Self.usersHeader,
      Self.copyRow(
        id: "11111111-1111-4111-8111-111111111111", email: "ada@example.com", hash: Self.bcrypt, phone: "15551234567"),
    ].joined(separator: "\n")
    let (_, accounts) = try PortableAccountReader.read(text + "\n")
    let ada = try #require(accounts.first)
    #expect(ada.phoneConfirmed == false && ada.factors == nil)
    #expect(AccountImportPlan.supabaseBody(ada, now: 0).body["phone_confirm"] == false)
    #expect(AccountImportPlan.firebaseEntry(ada, localId: "x", now: 0).entry["phoneNumber"] == nil)
    let check = ImportCheck(ada, target: .firebase, consent: ImportConsent(), now: 0)
    #expect(check.losses.contains(.phoneUnconfirmed))
    #expect(check.losses.contains(.factorsUnknown) && check.heldBack == nil)
  }

  @Test func aCopysInvitationIsNoLostPassword() throws {
    let text = [
      Self.usersHeader,
      Self.copyRow(
        id: "11111111-1111-4111-8111-111111111111", email: "new@example.com", confirmed: "",
        invited: "2024-01-03 00:00:00+00"),
    ].joined(separator: "\n")
    let (_, accounts) = try PortableAccountReader.read(text + "\n")
    let invited = try #require(accounts.first)
    #expect(invited.invitedAt == "2024-01-03T00:00:00Z" && invited.passwordNote == nil)
    let check = ImportCheck(invited, target: .supabase, consent: ImportConsent(), now: 0)
    #expect(check.heldBack == nil && !check.losses.contains(.password))
  }

  @Test func factorsNullIsUnknownNotNone() throws {
    let line = #"{"id":"u1","email":"ada@example.com","source":"supabase","factors":null}"#
    let account = try PortableAccount(json: try JSON.parse(line))
    #expect(account.factors == nil)
    #expect(ImportCheck(account, target: .firebase, consent: ImportConsent(), now: 0).losses.contains(.factorsUnknown))
    #expect(throws: PortableAccountError.self) { try PortableAccount(json: try JSON.parse(#"{"id":"u","factors":3}"#)) }
  }

  @Test func aFirebaseFileSaysWhichHashItCarries() throws {
    let bcrypt = Data(Self.bcrypt.utf8).base64EncodedString()
    let argon = "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"
    let file =
      #"{"users":[{"localId":"a","email":"a@example.com","passwordHash":"\#(bcrypt)","mfaInfo":[]},"#
      + #"{"localId":"b","email":"b@example.com","passwordHash":"\#(Data(argon.utf8).base64EncodedString())"}]}"#
    // No --hash-config: bcrypt and argon2 name themselves.
    let (_, accounts) = try PortableAccountReader.read(file)
    #expect(accounts[0].passwordHash == Self.bcrypt && accounts[0].factors == [])
    #expect(accounts[1].passwordHash == argon && accounts[1].factors == nil)
    // authsh's own firebase-format export writes argon2 too, and its factors.
    var exported = PortableAccount(id: "c", email: "c@example.com")
    exported.passwordHash = argon
    exported.factors = []
    let record = FirebaseImportRecord.json(exported)
    #expect(record["passwordHash"]?.string == Data(argon.utf8).base64EncodedString())
    #expect(record["mfaInfo"] == .array([]))
  }

  @Test func invalidCustomAttributesAreRefusedNotDropped() {
    for claims in [#"{\"admin\": true,}"#, #"[1,2]"#] {
      let file = #"{"users":[{"localId":"a","email":"a@example.com","customAttributes":"\#(claims)"}]}"#
      #expect(throws: PortableAccountError.self, "\(claims)") { try PortableAccountReader.read(file) }
    }
  }

  @Test func firebaseToolsQuotingOldAndNewIsReadAsWritten() throws {
    // Before mid-2026 firebase-tools wrapped a name with a comma in quotes without doubling the
    // quotes inside; it doubles them now (and a line break stays inside the quotes).
    func row(_ name: String) -> String {
      AccountFileFormatsTests.firebaseRow([0: "uid", 1: "a@example.com", 2: "true", 5: name])
    }
    let old = try PortableAccountReader.read(row(#""Smith, "Jo"""#) + "\n").1
    #expect(old.first?.displayName == #"Smith, "Jo""#)
    let new = try PortableAccountReader.read(row("\"Smith, \"\"Jo\"\"\nX\"") + "\n").1
    #expect(new.first?.displayName == "Smith, \"Jo\"\nX")
    let oldBroken = try PortableAccountReader.read(row("\"Smith, \"Jo\"\nX\"") + "\n").1
    #expect(oldBroken.first?.displayName == "Smith, \"Jo\"\nX")
  }

  @Test func anAccountOverOneMegabyteIsRefusedBeforeSending() {
    let name = String(repeating: "n", count: 1 << 20)
    let line = #"{"id":"u1","email":"a@example.com","display_name":"\#(name)"}"#
    #expect(throws: PortableAccountError.self) { try PortableAccountReader.read(line + "\n") }
  }
}
