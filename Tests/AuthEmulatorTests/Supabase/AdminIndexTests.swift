import AuthTestSupport
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("/admin/users indexes and API keys")
struct AdminIndexTests {
  func create(_ emu: TestEmulator, _ email: String, name: String? = nil) async -> String {
    var body: JSON = ["email": .string(email), "password": "hunter22"]
    if let name {
      body = ["email": .string(email), "password": "hunter22", "user_metadata": ["full_name": .string(name)]]
    }
    let created = await emu.send("POST", "admin/users", json: body, bearer: emu.serviceRoleKey)
    emu.clock.advance(1)
    return created.json["id"]?.string ?? ""
  }

  func list(_ emu: TestEmulator, _ query: String) async -> (total: String?, emails: [String]) {
    let reply = await emu.send("GET", "admin/users?" + query, bearer: emu.serviceRoleKey)
    return (reply.header("X-Total-Count"), reply.json["users"]?.array?.compactMap { $0["email"]?.string } ?? [])
  }

  @Test("filter: a substring as LIKE '%…%' (e-mail case-sensitive, name not), wildcards, newest first")
  func filterSemantics() async throws {
    let emu = try TestEmulator()
    for email in ["bob@x.io", "jimbob@x.io", "bob@x.io.uk", "bob@y.io", "bobby@x.io", "q_q@w.io", "qxq@w.io"] {
      _ = await create(emu, email)
    }
    _ = await create(emu, "named@z.io", name: "Contact BOB@X.IO please")
    let query = { (filter: String) in "filter=" + (filter.addingPercentEncodingForQuery) }
    #expect(await list(emu, query("bob@x.io")) == ("4", ["named@z.io", "bob@x.io.uk", "jimbob@x.io", "bob@x.io"]))
    #expect(await list(emu, query("BOB@x.io")).emails == ["named@z.io"], "LIKE on the e-mail is case-sensitive")
    #expect(await list(emu, query("BOBBY@")).emails == [])
    #expect(await list(emu, query("BOB@X.IO")).emails == ["named@z.io"], "ILIKE on full_name")
    #expect(await list(emu, query("q_q@")).emails == ["qxq@w.io", "q_q@w.io"], "_ matches one character")
    #expect(await list(emu, query("q\\_q@")).emails == ["q_q@w.io"], "\\ escapes")
    #expect(await list(emu, query("bob%uk")).emails == ["bob@x.io.uk"])
    #expect(await list(emu, query("@y.io")).emails == ["bob@y.io"])
    #expect(await list(emu, query("bob")).total == "6")
    #expect(
      await list(emu, query("bob@x.io") + "&sort=created_at.asc").emails
        == ["bob@x.io", "jimbob@x.io", "bob@x.io.uk", "named@z.io"])
    #expect(await list(emu, query("bob@x.io") + "&page=2&per_page=3") == ("4", ["bob@x.io"]))
  }

  @Test("the e-mail index agrees with a scan of every account, through updates and deletes")
  func indexAgreesWithAScan() async throws {
    let emu = try TestEmulator()
    let locals = ["a", "ab", "ba", "bab", "abc", "c"]
    let domains = ["x.io", "x.io.uk", "xx.io", "y.io"]
    var ids: [String] = []
    for local in locals {
      for domain in domains { ids.append(await create(emu, local + "@" + domain)) }
    }
    // Move some addresses and delete others: the index must follow.
    for (offset, id) in ids.enumerated() where offset % 5 == 0 {
      _ = await emu.send(
        "PUT", "admin/users/" + id, json: ["email": .string("moved\(offset)b@x.io")], bearer: emu.serviceRoleKey)
    }
    for (offset, id) in ids.enumerated() where offset % 7 == 3 {
      _ = await emu.send("DELETE", "admin/users/" + id, bearer: emu.serviceRoleKey)
    }
    let filters = ["a@x.io", "b@x", "ab@x.io.uk", "@x.io", "a@", "b@x.io", "c@y.io", "zz@x.io", "bab@xx.io"]
    for filter in filters {
      let expected = emu.emulator.supabase.state.read { data in
        data.users.values.filter { $0.email.contains(filter) }
          .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.map(\.email)
      }
      let listed = await list(emu, "per_page=1000&filter=" + filter.addingPercentEncodingForQuery)
      #expect(listed.emails == expected, "filter \(filter)")
      #expect(listed.total == String(expected.count))
    }
  }

  @Test("the indexes are rebuilt when the state is loaded again")
  func indexesRebuildOnLoad() async throws {
    let store = FirebaseMemoryStore()
    let first = try TestEmulator(store: store)
    for index in 1...3 { _ = await create(first, "user\(index)@example.com") }
    let again = try TestEmulator(store: store)
    #expect(await list(again, "per_page=2") == ("3", ["user3@example.com", "user2@example.com"]))
    #expect(await list(again, "filter=user1@example.com") == ("1", ["user1@example.com"]))
  }

  @Test("secret key as apikey alone is service_role; as a bearer it is not a JWT (403 bad_jwt)")
  func newStyleAPIKeys() async throws {
    let emu = try TestEmulator()
    _ = await create(emu, "a@x.io")
    let secret = await emu.send("GET", "admin/users", headers: [("apikey", SupabaseAPIKeys.secret)])
    #expect(secret.status == 200)
    #expect(secret.header("X-Total-Count") == "1")
    let bearer = await emu.send(
      "GET", "admin/users", bearer: SupabaseAPIKeys.secret, headers: [("apikey", SupabaseAPIKeys.secret)])
    #expect(bearer.status == 403)
    #expect(
      bearer.json == [
        "code": "bad_jwt",
        "message":
          "invalid JWT: unable to parse or verify signature, token is malformed: token contains an invalid number of segments",
      ])
    let publishable = await emu.send("GET", "admin/users", headers: [("apikey", SupabaseAPIKeys.publishable)])
    #expect(publishable.status == 403 && publishable.errorCode == "not_admin")
    let unknown = await emu.send("GET", "admin/users", headers: [("apikey", "sb_secret_not-this-one")])
    #expect(unknown.status == 401)
    // The service_role JWT still works beside it; the publishable key is an anon key for sign-up.
    #expect(
      await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey, headers: [("apikey", SupabaseAPIKeys.secret)])
        .status == 200)
    let signup = await emu.send(
      "POST", "signup", json: ["email": "p@x.io", "password": "hunter22"],
      headers: [("apikey", SupabaseAPIKeys.publishable)])
    #expect(signup.status == 200)
    #expect(emu.emulator.banner().contains(SupabaseAPIKeys.secret))
  }

  @Test("the listing body is the JSON of its users; cached entries follow updates")
  func listingBodyAndCache() async throws {
    let emu = try TestEmulator()
    let id = await create(emu, "a@x.io", name: "Ann")
    _ = await create(emu, "b@x.io")
    func expected() -> [UInt8] {
      let users = emu.emulator.supabase.state.read { data in
        data.users.values.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
      }
      let body: JSON = [
        "users": .array(users.map { .object($0.wireObject(identities: .null)) }), "aud": "authenticated",
      ]
      return body.bytes
    }
    let first = await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey)
    #expect(first.body == expected())
    _ = await emu.send(
      "PUT", "admin/users/" + id, json: ["user_metadata": ["full_name": "Anna"]], bearer: emu.serviceRoleKey)
    let second = await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey)
    #expect(second.body == expected())
    #expect(second.json["users"]?[1]?["user_metadata"]?["full_name"]?.string == "Anna")
  }

  @Test("soft delete (should_soft_delete): row kept with deleted_at, address hashed, no password, sessions end")
  func softDelete() async throws {
    let emu = try TestEmulator()
    let signedUp = await emu.signUp("soft@x.io", data: ["full_name": "Soft"])
    let id = signedUp.json["user"]?["id"]?.string ?? ""
    let session = await emu.signIn("soft@x.io")
    let token = session.json["access_token"]?.string ?? ""
    let deleted = await emu.send(
      "DELETE", "admin/users/" + id, json: ["should_soft_delete": true], bearer: emu.serviceRoleKey)
    #expect(deleted.status == 200 && deleted.json == [:])
    let user = await emu.send("GET", "admin/users/" + id, bearer: emu.serviceRoleKey)
    #expect(user.status == 200)
    #expect(user.json["deleted_at"]?.string?.isEmpty == false)
    #expect(user.json["email"]?.string == SupabaseData.obfuscated(id: id, "soft@x.io"))
    #expect(user.json["user_metadata"] == [:])
    #expect(await emu.signIn("soft@x.io").errorCode == "invalid_credentials")
    let after = await emu.send("GET", "user", bearer: token)
    #expect(after.errorCode == "session_not_found", "\(after.json)")
    #expect(await list(emu, "filter=soft@x.io").total == "0")
    // The address is free again; a hard delete removes the row.
    #expect(
      await emu.send("POST", "admin/users", json: ["email": "soft@x.io"], bearer: emu.serviceRoleKey).status == 200)
    #expect(await emu.send("DELETE", "admin/users/" + id, bearer: emu.serviceRoleKey).status == 200)
    #expect(await emu.send("GET", "admin/users/" + id, bearer: emu.serviceRoleKey).errorCode == "user_not_found")
  }
}

extension String {
  /// Percent-encodes everything but unreserved characters (for a query value).
  var addingPercentEncodingForQuery: String {
    var result = ""
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        result.append(Character(Unicode.Scalar(byte)))
      default:
        result += "%" + String(byte, radix: 16, uppercase: true).leftPadded
      }
    }
    return result
  }

  fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
