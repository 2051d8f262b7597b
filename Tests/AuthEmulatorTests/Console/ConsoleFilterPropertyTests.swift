import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

/// The accounts list's filters, against generated accounts: for every combination of filters and
/// providers, the count the console shows is the count of accounts whose admin API record (read
/// the way supabase-auth reads it) has each fact asked for.
@Suite("Web console: filters agree with the admin API on generated accounts")
struct ConsoleFilterPropertyTests {
  /// One account's facts as the admin API tells them.
  struct Record {
    var facts: [ConsoleFilters.Flag: Bool]
    var providers: Set<String>
  }

  /// Every ban here is for 24 hours and the clock stands still: a `banned_until` is in force.
  static func record(_ user: JSON) -> Record {
    var facts: [ConsoleFilters.Flag: Bool] = [:]
    facts[.confirmed] = user["email_confirmed_at"]?.string != nil || user["phone_confirmed_at"]?.string != nil
    facts[.anonymous] = user["is_anonymous"]?.bool == true
    facts[.disabled] = user["banned_until"]?.string != nil || user["deleted_at"]?.string != nil
    facts[.secondFactor] = (user["factors"]?.array ?? []).contains { $0["status"]?.string == "verified" }
    facts[.phone] = !(user["phone"]?.string ?? "").isEmpty
    let providers = (user["identities"]?.array ?? []).compactMap { $0["provider"]?.string }
    return Record(facts: facts, providers: Set(providers))
  }

  @Test("every combination of filters, over 40 generated Supabase accounts, from three seeds")
  func supabaseFiltersMatchTheAdminAPI() async throws {
    for seed: UInt64 in [1, 7, 2026] {
      var random = SplitMix64(seed: seed)
      let emu = try TestEmulator { $0.anonymousSignIns = true }
      let key = emu.serviceRoleKey
      var ids: [String] = []
      for index in 0..<40 {
        let shape = Int.random(in: 0..<4, using: &random)
        if shape == 3 {
          let made = await emu.send("POST", "signup", json: [:], bearer: emu.anonKey)
          ids.append(try #require(made.json["user"]?["id"]?.string))
          continue
        }
        var body = JSONObject()
        if shape != 1 {
          body["email"] = .string("g\(seed)-\(index)@x.io")
          body["email_confirm"] = .bool(Bool.random(using: &random))
        }
        if shape != 0 {
          body["phone"] = .string("+1555\(String(format: "%07d", Int(seed) * 100 + index))")
          body["phone_confirm"] = .bool(Bool.random(using: &random))
        }
        let made = await emu.send("POST", "admin/users", json: .object(body), bearer: key)
        let id = try #require(made.json["id"]?.string, "\(made.json)")
        ids.append(id)
        if Int.random(in: 0..<4, using: &random) == 0 {
          _ = await emu.send("PUT", "admin/users/\(id)", json: ["ban_duration": "24h"], bearer: key)
        }
      }
      var records: [Record] = []
      for id in ids { records.append(Self.record(await emu.send("GET", "admin/users/\(id)", bearer: key).json)) }
      let flags = ConsoleFilters.Flag.allCases
      for mask in 0..<(1 << flags.count) {
        for provider in ["", "email", "phone", "google"] {
          let chosen = flags.indices.filter { mask & (1 << $0) != 0 }.map { flags[$0] }
          let expected = records.filter { record in
            chosen.allSatisfy { record.facts[$0] == true } && (provider.isEmpty || record.providers.contains(provider))
          }.count
          var uri = "/_/?side=supabase" + chosen.map { "&\($0.rawValue)=1" }.joined()
          if !provider.isEmpty { uri += "&provider=\(provider)" }
          let page = await ConsoleFindTests.get(emu.emulator, uri)
          #expect(Self.count(page) == expected, "seed \(seed): \(uri)")
        }
      }
    }
  }

  /// The number in the page's count line (`<p id="count" …>12 accounts …`).
  static func count(_ page: String) -> Int? {
    guard let line = page.components(separatedBy: "id=\"count\"").dropFirst().first,
      let start = line.firstIndex(of: ">")
    else { return nil }
    return Int(line[line.index(after: start)...].prefix { $0.isNumber })
  }
}
