import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: paging and the same state as the APIs")
struct ConsolePagingTests {
  /// Accounts 0..<count (every seventh at the same time, so the ids order those), in random slots.
  struct Fixture {
    var keys: [ConsolePaging.Key]
    var ids: [String]
    func id(_ slot: Int) -> String { ids[slot] }
    /// The ids in (time, id) order.
    var ascending: [String] {
      keys.sorted { ($0.time, ids[$0.slot]) < ($1.time, ids[$1.slot]) }.map { ids[$0.slot] }
    }
    func window(_ query: ConsoleListQuery) -> ConsolePaging.Window { ConsolePaging.window(keys, query: query, id: id) }
  }

  static func fixture(_ count: Int) -> Fixture {
    let accounts = (0..<count).shuffled()
    return Fixture(
      keys: accounts.enumerated().map { ConsolePaging.Key(time: Int64($1 % 7 == 0 ? 5 : $1), slot: $0) },
      ids: accounts.map { "id\($0)" })
  }

  @Test("pages of fifty, newest or oldest first, the last page clamped")
  func pages() {
    let fixture = Self.fixture(120)
    var query = ConsoleListQuery()
    let sortedNewest = Array(fixture.ascending.reversed())
    let first = fixture.window(query)
    #expect(first.total == 120 && first.pageCount == 3 && first.page == 1)
    #expect(first.ids == Array(sortedNewest.prefix(50)))
    query.page = 3
    #expect(fixture.window(query).ids == Array(sortedNewest.suffix(20)))
    query.page = 99
    #expect(fixture.window(query).page == 3)
    query.page = 2
    query.newestFirst = false
    #expect(fixture.window(query).ids == Array(fixture.ascending[50..<100]))
    let empty = ConsolePaging.window([], query: ConsoleListQuery()) { _ in "" }
    #expect(empty == .init(ids: [], total: 0, page: 1, pageCount: 1))
  }

  @Test("first, middle and last pages of many agree with a full sort")
  func manyPages() {
    let fixture = Self.fixture(5_000)
    for newestFirst in [true, false] {
      let sorted = newestFirst ? Array(fixture.ascending.reversed()) : fixture.ascending
      for page in [1, 2, 50, 99, 100] {
        var query = ConsoleListQuery()
        query.newestFirst = newestFirst
        query.page = page
        #expect(fixture.window(query).ids == Array(sorted[(page - 1) * 50..<page * 50]))
      }
    }
  }

  @Test("the one-pass selection picks what a full sort would")
  func selection() {
    let fixture = Self.fixture(5_000)
    let ascending: (ConsolePaging.Key, ConsolePaging.Key) -> Bool = {
      ($0.time, fixture.ids[$0.slot]) < ($1.time, fixture.ids[$1.slot])
    }
    for count in [1, 50, 100, 1_000] {
      let low = ConsolePaging.smallest(count, of: fixture.keys, by: ascending)
      #expect(low == Array(fixture.keys.sorted(by: ascending).prefix(count)))
      let high = ConsolePaging.smallest(count, of: fixture.keys, by: { ascending($1, $0) })
      #expect(high == Array(fixture.keys.sorted(by: { ascending($1, $0) }).prefix(count)))
    }
  }

  @Test("search matches e-mail, id, name and phone in any case")
  func search() {
    var query = ConsoleListQuery()
    query.search = "ADA"
    #expect(query.matches(id: "x", email: "ada@example.com", name: nil, phone: nil))
    #expect(query.matches(id: "x", email: "b@example.com", name: "Lady Ada", phone: nil))
    #expect(!query.matches(id: "x", email: "b@example.com", name: "Bob", phone: nil))
    query.search = "4155"
    #expect(query.matches(id: "x", email: "", name: nil, phone: "+14155550100"))
    query.search = "éLO"
    #expect(query.matches(id: "x", email: "", name: "Chloé Éloïse", phone: nil))
    query.search = "AbC"
    #expect(query.matches(id: "xxABCxx", email: "", name: nil, phone: nil))
  }

  static func get(_ emu: TestEmulator, _ uri: String) async -> String {
    let response = await emu.emulator.handle(ConsoleSafetyTests.request("GET", uri))
    return String(decoding: response.body, as: UTF8.self)
  }

  @Test("a hostile name is listed as text; a ban from the console is what the admin API reads")
  func listAndBan() async throws {
    let emu = try TestEmulator()
    let hostile = "<img src=x onerror=alert(1)>"
    for index in 0..<60 {
      let name = index == 0 ? hostile : "User \(index)"
      let created = await emu.send(
        "POST", "admin/users",
        json: ["email": .string("u\(index)@example.com"), "user_metadata": ["full_name": .string(name)]],
        bearer: emu.serviceRoleKey)
      #expect(created.status == 200)
    }
    let page = await Self.get(emu, "/_/?side=supabase")
    #expect(page.contains("60 accounts") && page.contains("page 1 of 2"))
    #expect(!page.contains(hostile))
    let found = await Self.get(emu, "/_/?side=supabase&q=onerror")
    #expect(found.contains("1 account matching") && found.contains("&lt;img src=x onerror=alert(1)&gt;"))

    let id = try #require(
      await emu.send("GET", "admin/users?per_page=1000", bearer: emu.serviceRoleKey).json["users"]?.array?
        .first { $0["email"]?.string == "u0@example.com" }?["id"]?.string)
    let form = "token=\(EmulatorConsole.token)"
    let banned = await emu.emulator.handle(
      ConsoleSafetyTests.request("POST", "/_/accounts/supabase/\(id)/disable", form: form))
    #expect(banned.status == 303)
    let user = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json
    #expect(user["banned_until"]?.string != nil)
    let refused = await emu.emulator.handle(ConsoleSafetyTests.request("POST", "/_/accounts/supabase/\(id)/delete"))
    #expect(refused.status == 403)
    let asks = await Self.get(emu, "/_/accounts/supabase/\(id)/delete")
    #expect(asks.contains("Yes, delete it"))
    #expect(await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).status == 200)
  }
}
