import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: paging and the same state as the APIs")
struct ConsolePagingTests {
  static func keys(_ count: Int) -> [ConsolePaging.Key] {
    (0..<count).map { ConsolePaging.Key(time: Int64($0 % 7 == 0 ? 5 : $0), id: "id\($0)") }
  }

  @Test("pages of fifty, newest or oldest first, the last page clamped")
  func pages() {
    let keys = Self.keys(120).shuffled()
    var query = ConsoleListQuery()
    let sortedNewest = keys.sorted(by: >).map(\.id)
    let first = ConsolePaging.window(keys, query: query)
    #expect(first.total == 120 && first.pageCount == 3 && first.page == 1)
    #expect(first.ids == Array(sortedNewest.prefix(50)))
    query.page = 3
    #expect(ConsolePaging.window(keys, query: query).ids == Array(sortedNewest.suffix(20)))
    query.page = 99
    #expect(ConsolePaging.window(keys, query: query).page == 3)
    query.page = 2
    query.newestFirst = false
    #expect(ConsolePaging.window(keys, query: query).ids == Array(keys.sorted().map(\.id)[50..<100]))
    #expect(ConsolePaging.window([], query: ConsoleListQuery()) == .init(ids: [], total: 0, page: 1, pageCount: 1))
  }

  @Test("first, middle and last pages of many agree with a full sort")
  func manyPages() {
    let keys = Self.keys(5_000).shuffled()
    for newestFirst in [true, false] {
      let sorted = (newestFirst ? keys.sorted(by: >) : keys.sorted()).map(\.id)
      for page in [1, 2, 50, 99, 100] {
        var query = ConsoleListQuery()
        query.newestFirst = newestFirst
        query.page = page
        #expect(ConsolePaging.window(keys, query: query).ids == Array(sorted[(page - 1) * 50..<page * 50]))
      }
    }
  }

  @Test("the one-pass selection picks what a full sort would")
  func selection() {
    let keys = Self.keys(5_000).shuffled()
    for count in [1, 50, 100, 1_000] {
      #expect(ConsolePaging.smallest(count, of: keys, by: <) == Array(keys.sorted().prefix(count)))
      #expect(ConsolePaging.smallest(count, of: keys, by: >) == Array(keys.sorted(by: >).prefix(count)))
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
