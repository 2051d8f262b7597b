import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("emulator --seed")
struct SeedTests {
  static func error(_ text: String) -> String? {
    do {
      _ = try EmulatorSeed.parse(text, file: "accounts.jsonl")
      return nil
    } catch let error as EmulatorSeedError {
      return error.message
    } catch {
      return "\(error)"
    }
  }

  @Test(
    "a line that does not fit names FILE:LINE and says what is wrong",
    arguments: [
      (#"{"backend":"supabase","email":"a@example.com"} trailing"#, "accounts.jsonl:2: not a JSON object"),
      (#"["supabase"]"#, "accounts.jsonl:2: expected one JSON object per line, got array"),
      (#"{"email":"a@example.com"}"#, #"accounts.jsonl:2: "backend" is missing (supabase, firebase or both)"#),
      (
        #"{"backend":"aws","email":"a@example.com"}"#,
        #"accounts.jsonl:2: "backend" must be supabase, firebase or both, not "aws""#
      ),
      (#"{"backend":"supabase","email":"a@example.com","pasword":"x"}"#, #"accounts.jsonl:2: unknown field "pasword""#),
      (#"{"backend":"supabase","email":"not-an-address"}"#, #"accounts.jsonl:2: "email" is not an e-mail address"#),
      (
        #"{"backend":"supabase","email":"a@example.com","password":"12345"}"#, #""password" must be 6 to 72 characters"#
      ),
      (#"{"backend":"supabase","email":"a@example.com","password":42}"#, #""password" must be a string or null"#),
      (#"{"backend":"firebase","email":"a@example.com","invited":true}"#, #""invited" is a Supabase kind of account"#),
      (
        #"{"backend":"supabase","email":"a@example.com","email_link_only":true}"#,
        #""email_link_only" is a Firebase kind of account"#
      ),
      (
        #"{"backend":"supabase","email":"a@example.com","password":"secret-1","invited":true}"#,
        #"an invited account has no password"#
      ),
      (#"{"backend":"supabase","email":"a@example.com","anonymous":true}"#, "an anonymous account has no e-mail"),
      (#"{"backend":"supabase","password":null}"#, #""email" is missing"#),
      (
        #"{"backend":"supabase","email":"a@example.com","providers":["myspace"]}"#,
        #"unknown Supabase provider "myspace""#
      ),
      (
        #"{"backend":"supabase","email":"a@example.com","password":"secret-1","providers":["google"]}"#,
        #"a password needs the "email" provider"#
      ),
      (
        #"{"backend":"firebase","email":"a@example.com","providers":["password"]}"#,
        #"the "password" provider needs a password"#
      ),
      (
        #"{"backend":"both","email":"a@example.com","factors":[{"name":"phone"}]}"#, #"factors[0]: "secret" is missing"#
      ),
      (
        #"{"backend":"both","email":"a@example.com","factors":[{"secret":"not base32!"}]}"#,
        #"factors[0]: "secret" is not base32"#
      ),
      (
        #"{"backend":"firebase","email":"a@example.com","confirmed":false,"factors":[{"secret":"JBSWY3DPEHPK3PXP"}]}"#,
        "Firebase needs a verified e-mail"
      ),
      (#"{"backend":"supabase","email":"b@example.com","deleted":"hard"}"#, #""deleted" can only be "soft""#),
      (
        #"{"backend":"both","email":"A@example.com"}"#,
        "accounts.jsonl:2: the supabase account with email a@example.com is already on line 1"
      ),
    ])
  func errors(_ line: String, _ expected: String) throws {
    let message = try #require(Self.error(#"{"backend":"both","email":"a@example.com"}"# + "\n" + line))
    #expect(message.contains(expected), "\(message)")
    #expect(message.hasPrefix("accounts.jsonl:2: "))
  }

  @Test("messages never repeat a password or a factor secret of the line")
  func noSecretsInMessages() throws {
    let lines = [
      #"{"backend":"supabase","email":"a@example.com","password":"Sekr1t-Pw-77","providers":["google"]}"#,
      #"{"backend":"supabase","email":"a@example.com","password":"Sekr1t-Pw-77" "x"}"#,
      #"{"backend":"firebase","email":"a@example.com","factors":[{"secret":"SEKR1TSECRET8"}]}"#,
      #"{"backend":"firebase","email":"a@example.com","confirmed":false,"factors":[{"secret":"JBSWY3DPEHPK3PXQ"}]}"#,
      #"{"backend":"supabase","email":"a@example.com","password":"Sekr1t-Pw-77","invited":true}"#,
    ]
    for line in lines {
      let message = try #require(Self.error(line))
      #expect(!message.contains("Sekr1t") && !message.contains("SEKR1T") && !message.contains("PXQ"), "\(message)")
    }
  }

  @Test("blank lines and # comments are skipped; both makes one account a side with each side's provider names")
  func parse() throws {
    let accounts = try EmulatorSeed.parse(
      """
      # comment

      {"backend":"both","email":"G@example.com","password":null,"providers":["google"],"factors":[{"name":"phone","secret":"jbsw y3dp ehpk 3pxp"}]}
      """, file: "f")
    #expect(accounts.map(\.backend) == [.supabase, .firebase])
    #expect(accounts.map(\.providers) == [["google"], ["google.com"]])
    #expect(accounts[0].email == "g@example.com")
    #expect(accounts[0].line == 3)
    #expect(accounts[1].factors == [.init(name: "phone", secret: "JBSWY3DPEHPK3PXP", verified: true, id: nil)])
  }

  @Test("every kind of account comes out shaped as the backend leaves it")
  func shapes() async throws {
    let emu = try TestEmulator { $0.project = "demo-test" }  // FirebaseHarness's project
    let text = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
    let result = try emu.emulator.seed(try EmulatorSeed.parse(text, file: "accounts.jsonl"))
    #expect(result.created == 20)
    #expect(result.alreadyThere == 0)
    let key = emu.serviceRoleKey
    func user(_ email: String) async -> JSON {
      let listed =
        await emu.send("GET", "admin/users?filter=\(email)", bearer: key).json["users"]?[0]?["id"]?.string ?? ""
      return await emu.send("GET", "admin/users/\(listed)", bearer: key).json
    }
    #expect(await emu.signIn("ada@example.com", "correct-horse-1").status == 200)
    let mfa = await emu.signIn("mfa@example.com", "correct-horse-1").json
    #expect(mfa.claims["aal"] == "aal1")
    #expect(mfa["user"]?["factors"]?[0]?["status"] == "verified")
    #expect(mfa["user"]?["factors"]?[0]?["friendly_name"] == "phone")
    let google = await user("google@example.com")
    #expect(google["app_metadata"] == ["provider": "google", "providers": ["google"]])
    #expect(google["identities"]?.array?.compactMap { $0["provider"]?.string } == ["google"])
    #expect(await emu.signIn("unconfirmed@example.com", "correct-horse-1").errorCode == "email_not_confirmed")
    #expect(await emu.signIn("banned@example.com", "correct-horse-1").errorCode == "user_banned")
    let invited = await user("invited@example.com")
    #expect(invited["invited_at"] != nil && invited["confirmed_at"] == nil)
    let sso = await user("sso@example.com")
    #expect(sso["app_metadata"]?["provider"]?.string?.hasPrefix("sso:") == true)
    #expect(await emu.signIn("sso@example.com", "correct-horse-1").errorCode == "invalid_credentials")
    let anonymous = await emu.send("GET", "admin/users/00000000-0000-4000-8000-00000000a11e", bearer: key).json
    #expect(anonymous["is_anonymous"] == true)
    #expect(
      await emu.send("GET", "admin/users?filter=deleted@example.com", bearer: key).json["users"] == [],
      "soft-deleted: the address is gone")
    // Firebase.
    let fb = FirebaseHarness(emulator: emu.emulator)
    #expect(await fb.signIn("mfa@example.com", "correct-horse-1")["mfaPendingCredential"] != nil)
    let link = await fb.admin("accounts:lookup", ["email": ["link@example.com"]])["users"]?[0]
    #expect(link?["emailLinkSignin"] == true && link?["passwordHash"] == nil)
    let noPassword = await fb.admin("accounts:lookup", ["email": ["nopassword@example.com"]])["users"]?[0]
    #expect(noPassword?["passwordHash"] == nil && noPassword?["providerUserInfo"] == [])
    let googleFB = await fb.admin("accounts:lookup", ["email": ["google@example.com"]])["users"]?[0]
    #expect(googleFB?["providerUserInfo"]?[0]?["providerId"] == "google.com")
    #expect(await fb.admin("accounts:lookup", ["email": ["banned@example.com"]])["users"]?[0]?["disabled"] == true)
    // Seeding again keeps what is there.
    let again = try emu.emulator.seed(try EmulatorSeed.parse(text, file: "accounts.jsonl"))
    #expect(again.created == 0 && again.alreadyThere == 20)
  }

  static var examplePath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/accounts.jsonl").path
  }

  @Test("a seed file that is not there is an error of its own")
  func missingFile() {
    #expect(throws: EmulatorSeedError.self) { try EmulatorSeed.load(path: "/nonexistent/seed.jsonl") }
  }
}

/// A store whose writes to one table fail (a disk that fills up half-way through a seed).
final class TableFailingStore: DocumentStore, @unchecked Sendable {
  let inner = FullDiskStore()
  let failing: String
  init(failing: String) { self.failing = failing }
  func put(_ table: String, key: String, _ document: JSON) throws {
    try apply([.put(table: table, key: key, document: document)])
  }
  func delete(_ table: String, key: String) throws { try apply([.delete(table: table, key: key)]) }
  func deleteAll(_ table: String) throws { try inner.deleteAll(table) }
  func loadAll(_ table: String) throws -> [(key: String, document: JSON)] { try inner.loadAll(table) }
  func apply(_ changes: [DocumentChange]) throws {
    for change in changes {
      if case .put(let table, _, _) = change, table == failing { throw FullDiskStore.DiskFull() }
    }
    try inner.apply(changes)
  }
}

extension SeedTests {
  @Test("nothing half-seeded: when the Firebase half cannot be stored, the Supabase half is taken back")
  func atomic() async throws {
    let store = TableFailingStore(failing: FirebaseProject.usersTable)
    let emu = try TestEmulator(store: store)
    let accounts = try EmulatorSeed.parse(
      #"{"backend":"both","email":"a@example.com","password":"secret-1"}"#, file: "f")
    #expect(throws: FullDiskStore.DiskFull.self) { try emu.emulator.seed(accounts) }
    #expect(emu.emulator.supabase.state.read { $0.users.count } == 0)
    #expect(try store.loadAll(SupabaseData.usersTable).isEmpty)
  }
}

extension FirebaseHarness {
  /// A harness over an emulator made elsewhere (its default project).
  init(emulator: Emulator) {
    self.emulator = emulator
    self.clock = ManualTestClock(.firebaseTestStart)
  }
}
