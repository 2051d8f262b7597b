import AuthCore
import JSONKit
import Testing

/// The account files other tools write are read whole; anything else is refused naming its line;
/// an account that would arrive weaker than it left is held back unless a flag says yes.
@Suite struct AccountFileFormatsTests {
  static func firebaseRow(_ fields: [Int: String]) -> String {
    (0..<28).map { fields[$0] ?? "" }.joined(separator: ",") + ","
  }

  @Test func firebaseToolsCSVIsReadByPositionWithoutAHeader() throws {
    let ada = Self.firebaseRow([
      0: "uid-ada", 1: "ada@example.com", 2: "true", 5: "\"Lovelace, Ada\"", 7: "g-1", 8: "ada@gmail.com",
      23: "1700000000000",
      24: "1700000100000", 25: "+15551234567", 26: "false", 27: "\"{\"\"tier\"\":\"\"gold\"\"}\"",
    ])
    let bob = Self.firebaseRow([0: "uid-bob", 1: "bob@example.com", 2: "false", 26: "true"])
    let (format, accounts) = try PortableAccountReader.read(ada + "\n" + bob + "\n")
    #expect(format == .firebaseCSV)
    #expect(accounts.map(\.id) == ["uid-ada", "uid-bob"])
    #expect(accounts[0].displayName == "Lovelace, Ada")
    #expect(accounts[0].emailVerified == true && accounts[1].emailVerified == false)
    #expect(accounts[0].phone == "+15551234567")
    #expect(accounts[0].providers == ["google.com"])
    #expect(accounts[0].appMetadata?["claims"]?["tier"]?.string == "gold")
    #expect(accounts[0].createdAt == "2023-11-14T22:13:20.000Z")
    #expect(accounts[1].disabled == true)
  }

  /// firebase-tools quotes a name only when it holds a comma: any other line break in a name
  /// (its own or a provider's) is written bare, and the row goes on on the next line.
  @Test func aNameWithALineBreakGoesOnToTheNextLineAsFirebaseToolsWritesIt() throws {
    // "mixed": a CRLF break in a row whose next line ends in LF alone (and the other way round).
    let names = [
      "cr\r\nlf", "line\nbreak", "\nleading", "trailing\n", "Smith, \"Jo\"\nand co", "mixed\r\n",
      "Quoted, \"x\"\r\nend",
      // Bare names that start with a quote (no comma, so not quoted): read as the names they are.
      "\"", "\"Ada\" L", "\"\"", "\"line\nbreak\"",
    ]
    let rows = names.enumerated().map { index, name in
      Self.firebaseRow([
        0: "uid-\(index)", 1: "p\(index)@example.com", 2: "true", 5: name.contains(",") ? "\"\(name)\"" : name,
        7: "g-\(index)", 9: "G \(name.contains(",") ? "plain" : name)", 23: "1700000000000",
        27: "\"{\"\"n\"\":\(index)}\"",
      ])
    }
    let (format, accounts) = try PortableAccountReader.read(rows.joined(separator: "\n") + "\n")
    #expect(format == .firebaseCSV)
    #expect(accounts.map(\.id) == (0..<names.count).map { "uid-\($0)" })
    #expect(accounts.map(\.displayName) == names)
    #expect(accounts.map { $0.appMetadata?["claims"]?["n"]?.int } == names.indices.map { $0 })
    // A row cut short (here in its name, at the end of the file) is still refused, naming the line
    // it starts on (the first row took three).
    let cut = rows[0] + "\n" + "uid-x,x@example.com,true,,,half"
    #expect {
      try PortableAccountReader.read(cut + "\n")
    } throws: { error in
      (error as? PortableAccountError)?.message.contains("line 4: 6 fields where firebase-tools writes 28") == true
    }
  }

  @Test func aCopyOfAuthUsersIsReadAndItsDeletedAccountsStayBehind() throws {
    let header =
      "instance_id,id,aud,role,email,encrypted_password,email_confirmed_at,created_at,raw_app_meta_data,raw_user_meta_data,phone,banned_until,deleted_at"
    let rows = [
      #",11111111-1111-4111-8111-111111111111,authenticated,authenticated,ada@example.com,$2a$04$abcdefghijklmnopqrstuu1234567890123456789012345678901,2024-01-02 03:04:05.123456+00,2024-01-01 00:00:00+00,"{""provider"":""email"",""providers"":[""email""]}","{""full_name"":""Ada""}",15551234567,,"#,
      #",22222222-2222-4222-8222-222222222222,authenticated,authenticated,gone@example.com,,,2024-01-01 00:00:00+00,{},{},,,2024-06-01 00:00:00+00"#,
    ]
    let (format, accounts) = try PortableAccountReader.read(([header] + rows).joined(separator: "\n") + "\n")
    #expect(format == .authUsers)
    #expect(accounts.count == 1)
    let ada = try #require(accounts.first)
    #expect(ada.email == "ada@example.com" && ada.emailVerified == true && ada.phone == "+15551234567")
    #expect(ada.passwordHash?.hasPrefix("$2a$04$") == true)
    #expect(ada.displayName == "Ada" && ada.providers == ["email"] && ada.source == "supabase")
    #expect(ada.createdAt == "2024-01-01T00:00:00Z")
  }

  @Test func anythingElseIsRefusedNamingItsLine() {
    let cases: [(String, String)] = [
      ("garbage\n", "line 1: 'garbage' is no header authsh reads"),
      ("email,notes\nada@example.com,hi\n", "line 1: 'email,notes' is no header authsh reads"),
      ("email,email_verified,display_name\nada@example.com,Ada\n", "line 2: 2 fields where the header names 3"),
      (
        Self.firebaseRow([0: "uid", 1: "a@example.com", 2: "true"]).dropLast(3) + "\n",
        "or firebase-tools' CSV (no header, 28 fields a row)"
      ),
    ]
    for (text, message) in cases {
      #expect {
        try PortableAccountReader.read(String(text))
      } throws: { error in
        (error as? PortableAccountError)?.message.contains(message) == true
      }
    }
  }

  @Test func anAccountThatWouldArriveWeakerIsHeldBackUnlessItsFlagSaysYes() {
    var argon = PortableAccount(id: "a", email: "argon@example.com")
    argon.passwordHash = "$argon2id$v=19$m=16,t=2,p=1$c2FsdA$aGFzaA"
    let held = ImportCheck(argon, target: .firebase, consent: ImportConsent(), now: 0)
    #expect(
      held.losses.filter { $0 != .factorsUnknown } == [.password]
        && held.heldBack?.contains("--without-passwords") == true)
    let allowed = ImportCheck(
      argon, target: .firebase, consent: ImportConsent(withoutPasswords: true), now: 0)
    #expect(allowed.heldBack == nil)

    var factored = PortableAccount(id: "f", email: "f@example.com")
    factored.passwordHash = "$2a$04$abcdefghijklmnopqrstuu1234567890123456789012345678901"
    factored.factors = [PortableFactor(id: "x", type: "totp")]
    #expect(
      ImportCheck(factored, target: .supabase, consent: ImportConsent(), now: 0).heldBack
        != nil)
    #expect(
      ImportCheck(
        factored, target: .supabase, consent: ImportConsent(dropFactors: true), now: 0
      ).heldBack == nil)

    var unverified = PortableAccount(id: "u", email: "u@example.com")
    unverified.source = "firebase"
    unverified.emailVerified = false
    unverified.passwordHash = factored.passwordHash
    #expect(
      ImportCheck(unverified, target: .supabase, consent: ImportConsent(), now: 0).losses
        == [.factorsUnknown, .verified])
    let confirmed = ImportCheck(
      unverified, target: .supabase, consent: ImportConsent(confirmUnverified: true), now: 0
    )
    #expect(confirmed.heldBack == nil && confirmed.account.emailVerified == true)

    // Losses that weaken nothing are counted, never held back.
    var social = PortableAccount(id: "s", email: "s@example.com")
    social.providers = ["google"]
    social.phone = "15551234567"
    social.userMetadata = JSONObject([("plan", "pro")])
    let counted = ImportCheck(social, target: .firebase, consent: ImportConsent(), now: 0)
    #expect(counted.heldBack == nil && counted.losses == [.factorsUnknown, .identities, .metadata, .phoneUnconfirmed])
  }

  /// An export's record says whether there was a password (a hash, or a note on why it is missing):
  /// an e-mail-link account lists `password` as its way in and has none. A file without `source`
  /// only lists the ways in, and a listed password is taken at its word.
  @Test func anExportSaysWhetherThereWasAPassword() {
    var link = PortableAccount(id: "l", email: "link@example.com")
    link.providers = ["password"]
    link.source = "firebase"
    #expect(ImportCheck(link, target: .supabase, consent: ImportConsent(), now: 0).heldBack == nil)
    link.source = nil
    #expect(
      ImportCheck(link, target: .supabase, consent: ImportConsent(), now: 0).losses.filter { $0 != .factorsUnknown }
        == [.password])
  }

  /// A ban's end decides: one that has passed is no ban; one to come is a ban that Firebase keeps
  /// without its end (counted); `disabled` without an end is a ban with none.
  @Test func aBanIsReadByItsEnd() {
    let now = 1_800_000_000
    var timed = PortableAccount(id: "t", email: "t@example.com")
    timed.disabled = true
    timed.bannedUntil = "2027-02-01T00:00:00Z"
    var expired = PortableAccount(id: "e", email: "e@example.com")
    expired.bannedUntil = "2024-02-01T00:00:00Z"
    var forever = PortableAccount(id: "f", email: "f@example.com")
    forever.disabled = true
    let end = UnixTime.parseISO("2027-02-01T00:00:00Z")!
    #expect(timed.ban(at: now - 1_000_000) == .until(end) && timed.ban(at: end) == nil)
    #expect(expired.ban(at: now) == nil && forever.ban(at: now) == .forever)
    let early = end - 86_400
    #expect(
      ImportCheck(timed, target: .firebase, consent: ImportConsent(), now: early).losses.filter {
        $0 != .factorsUnknown
      } == [.banEnd])
    #expect(ImportCheck(forever, target: .firebase, consent: ImportConsent(), now: early).losses == [.factorsUnknown])
    #expect(ImportCheck(expired, target: .firebase, consent: ImportConsent(), now: early).losses == [.factorsUnknown])
    #expect(AccountImportPlan.firebaseEntry(timed, localId: "t", now: early).entry["disabled"] == true)
    #expect(AccountImportPlan.firebaseEntry(expired, localId: "e", now: early).entry["disabled"] == nil)
    #expect(AccountImportPlan.supabaseBody(timed, now: early).body["ban_duration"] == "86400s")
    #expect(AccountImportPlan.supabaseBody(forever, now: early).body["ban_duration"] == "876000h")
    #expect(AccountImportPlan.supabaseBody(expired, now: early).body["ban_duration"] == nil)
  }
}
