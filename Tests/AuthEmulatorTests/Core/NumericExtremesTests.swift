import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

/// Integer extremes, non-finite numbers and numeric strings in every numeric parameter the
/// emulator reads (query, JSON body, as numbers and as strings), through the real router
/// (`Emulator.handle`): each answer is a 200 or the backend's own 400, and the emulator keeps
/// answering. Bounded and deterministic: 44 values × 14 parameters = 616 requests.
@Suite("numeric extremes") struct NumericExtremesTests {
  static let numbers = [
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "99999999999999999999999999999999", "1e300", "-1e300", "1e400", "-1e400", "0", "-0",
    "-1", "1.5", "0.1", "4.9e-324", "253402300800", "9007199254740993",
  ]
  static let strings = [
    "9223372036854775807", "-9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "18446744073709551616", "99999999999999999999999999999999", "1e300", "-1e300", "inf", "-inf", "Infinity",
    "NaN", "nan", "-0", "0", "", " ", "1.5", "-1", "0x7fffffffffffffff", "1_000", "+5", "12abc", "3600",
    "253402300799999", "999999999999",
  ]
  /// `(JSON text for a body, plain text for a query)` per value.
  static let values: [(json: String, text: String)] =
    numbers.map { ($0, $0) } + strings.map { (JSON.string($0).compactText, $0) }

  static func query(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }

  @Test("616 extreme values in every numeric emulator parameter: 200 or 400, never a crash")
  func everyNumericParameter() async throws {
    #expect(Self.values.count == 44)
    var sent = 0
    // Supabase: page, per_page, ban_duration (create and update), faults' times/latency_ms/status.
    let supabase = try TestEmulator()
    let admin = supabase.serviceRoleKey
    for email in ["a@example.com", "b@example.com", "c@example.com"] { await supabase.signUp(email) }
    let someone = await supabase.send(
      "POST", "admin/users", json: ["email": "d@example.com", "password": "hunter22"], bearer: admin)
    let id = someone.json["id"]?.string ?? ""
    for value in Self.values {
      let q = Self.query(value.text)
      let answers = [
        await supabase.send("GET", "admin/users?page=\(q)&per_page=2", bearer: admin),
        await supabase.send("GET", "admin/users?page=1&per_page=\(q)", bearer: admin),
        await supabase.send("GET", "admin/users?page=\(q)&per_page=\(q)", bearer: admin),
        await supabase.send(
          "POST", "admin/users", raw: #"{"email":"x\#(sent)@example.com","ban_duration":\#(value.json)}"#, bearer: admin
        ),
        await supabase.send("PUT", "admin/users/\(id)", raw: #"{"ban_duration":\#(value.json)}"#, bearer: admin),
        await supabase.send("POST", "/emulator/v1/faults", raw: #"{"path":"/nowhere","times":\#(value.json)}"#),
        await supabase.send("POST", "/emulator/v1/faults", raw: #"{"path":"/nowhere","latency_ms":\#(value.json)}"#),
        await supabase.send("POST", "/emulator/v1/faults", raw: #"{"path":"/nowhere","status":\#(value.json)}"#),
      ]
      _ = await supabase.send("DELETE", "/emulator/v1/faults")
      for (index, answer) in answers.enumerated() {
        #expect(
          [200, 201, 400, 422].contains(answer.status),
          "supabase #\(index) \(value.json): \(answer.status) \(answer.text)")
        if answer.status >= 400, index < 3 {
          #expect(answer.errorCode == "validation_failed", "#\(index) \(value.json): \(answer.text)")
        }
        sent += 1
      }
    }
    #expect(await supabase.send("GET", "admin/users", bearer: admin).status == 200, "still answering")

    // Firebase: maxResults, validDuration, createdAt/lastLoginAt/validSince of accounts:update, and
    // lookup afterwards (the stored values are served back).
    let firebase = try FirebaseHarness()
    let created = await firebase.signUp("ada@example.com")
    let idToken = created.string("idToken")
    let localId = created.string("localId")
    let owner: [(name: String, value: String)] = [
      ("Content-Type", "application/json"), ("Authorization", "Bearer owner"),
    ]
    let base = FirebaseHarness.toolkit + "projects/\(firebase.project)/"
    for value in Self.values {
      let q = Self.query(value.text)
      var answers = [
        await firebase.send("GET", base + "accounts:batchGet?maxResults=\(q)", headers: owner),
        await firebase.send(
          "POST", FirebaseHarness.toolkit + "projects/\(firebase.project):createSessionCookie",
          body: Array(#"{"idToken":"\#(idToken)","validDuration":\#(value.json)}"#.utf8), headers: owner),
      ]
      for field in ["createdAt", "lastLoginAt", "validSince"] {
        answers.append(
          await firebase.send(
            "POST", base + "accounts:update",
            body: Array(#"{"localId":"\#(localId)","\#(field)":\#(value.json)}"#.utf8),
            headers: owner))
      }
      answers.append(await firebase.admin("accounts:lookup", ["localId": [.string(localId)]]))
      for (index, answer) in answers.enumerated() {
        #expect(
          [200, 400].contains(answer.status), "firebase #\(index) \(value.json): \(answer.status) \(answer.text)")
        if answer.status == 400 { #expect(answer.json["error"]?["code"]?.int == 400, "\(answer.text)") }
        sent += 1
      }
    }
    #expect(sent == 616)
  }

  // MARK: - The instances from the issue

  @Test("GET /admin/users with page=Int.max: 400 validation_failed, not a crash")
  func pageOverflow() async throws {
    let emu = try TestEmulator()
    await emu.signUp("a@example.com")
    let key = emu.serviceRoleKey
    let huge = await emu.send("GET", "admin/users?page=9223372036854775807&per_page=2", bearer: key)
    #expect(huge.status == 400)
    #expect(huge.errorCode == "validation_failed")
    let tooBig = await emu.send("GET", "admin/users?page=18446744073709551616", bearer: key)
    #expect(tooBig.status == 400)
    #expect(tooBig.text.contains(#"parsing \"18446744073709551616\": value out of range"#), "\(tooBig.text)")
    let zero = await emu.send("GET", "admin/users?per_page=0", bearer: key)
    #expect(zero.status == 400)
    #expect(zero.text.contains("Bad Pagination Parameters: per_page must be greater than 0"), "\(zero.text)")
    let hugePerPage = await emu.send("GET", "admin/users?page=1&per_page=9223372036854775807", bearer: key)
    #expect(hugePerPage.status == 200)
    #expect(hugePerPage.header("X-Total-Count") == "1")
  }

  @Test(
    "createSessionCookie validDuration as operations.ts reads it",
    arguments: [
      ("1e300", 400), ("-1e300", 400), ("9223372036854775808", 400), ("Infinity", 400), ("-Infinity", 400),
      ("299", 400), ("1209601", 400), ("inf", 200), ("nan", 200), ("", 200), ("300", 200), ("0x12c", 200),
      ("1209600", 200),
    ])
  func sessionCookieDuration(_ text: String, _ status: Int) async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("ada@example.com")
    let body: JSON = ["idToken": .string(created.string("idToken")), "validDuration": .string(text)]
    let reply = await harness.send(
      "POST", FirebaseHarness.toolkit + "projects/\(harness.project):createSessionCookie", body: body.bytes,
      headers: [("Content-Type", "application/json"), ("Authorization", "Bearer owner")])
    #expect(reply.status == status, "\(text): \(reply.text)")
    if status == 400 { #expect(reply.error == "INVALID_DURATION") }
    if status == 200 {
      let claims = firebaseClaims(reply.string("sessionCookie"))
      let lifetime = (claims["exp"]?.int ?? 0) - (claims["iat"]?.int ?? 0)
      #expect(lifetime >= 300 && lifetime <= 1_209_600)
    }
  }

  @Test("a state file with out-of-range times loads without trapping", arguments: [Int.min, Int.min + 1, Int.max])
  func corruptStoredTimes(_ value: Int) async throws {
    let store = FirebaseMemoryStore()
    let first = try TestEmulator(store: store)
    let created = await first.send(
      "POST", "admin/users", json: ["email": "c@example.com", "password": "hunter22", "ban_duration": "24h"],
      bearer: first.serviceRoleKey)
    let id = try #require(created.json["id"]?.string)
    let table = "supabase_users"
    guard case .object(var document)? = store.documents(table).first else {
      Issue.record("nothing stored")
      return
    }
    for key in ["banned_until", "created_at", "updated_at", "last_sign_in_at", "email_confirmed_at"] {
      document[key] = JSON.int(value)
    }
    try store.put(table, key: id, .object(document))
    let reloaded = try TestEmulator(store: store)
    let user = await reloaded.send("GET", "admin/users/\(id)", bearer: reloaded.serviceRoleKey)
    #expect([200, 404].contains(user.status), "\(user.text)")
    #expect(await reloaded.send("GET", "admin/users", bearer: reloaded.serviceRoleKey).status == 200)
  }

  @Test("ban_duration past Go's ±292 years is an invalid duration")
  func banDurationOverflow() async throws {
    let emu = try TestEmulator()
    let reply = await emu.send(
      "POST", "admin/users", json: ["email": "b@example.com", "ban_duration": "99999999999999999999h"],
      bearer: emu.serviceRoleKey)
    #expect(reply.status == 400)
    #expect(reply.errorCode == "validation_failed")
  }
}
