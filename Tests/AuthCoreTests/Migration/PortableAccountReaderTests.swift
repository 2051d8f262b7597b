import Foundation
import JSONKit
import Testing

@testable import AuthCore

@Suite("user import: the record reader")
struct PortableAccountReaderTests {
  @Test func jsonlRecordsWithEveryField() throws {
    let text = """
      {"id":"abc","email":"ada@example.com","email_verified":true,"display_name":"Ada","disabled":false,"user_metadata":{"plan":"pro"},"app_metadata":{"claims":{"admin":true}},"providers":["password"],"source":"firebase","password_hash":"$2a$10$0123456789012345678901uVWXYZabcdefghijklmnopqrstuvwxy","password_note":null}

      {"email":"bob@example.com","password_hash":null,"password_note":"Supabase's admin API does not return hashes; use --db URL"}
      """
    let (format, accounts) = try PortableAccountReader.read(text)
    #expect(format == .jsonl)
    #expect(accounts.count == 2)
    #expect(accounts[0].id == "abc" && accounts[0].emailVerified == true && accounts[0].displayName == "Ada")
    #expect(accounts[0].userMetadata?["plan"] == "pro" && accounts[0].appMetadata?["claims"]?["admin"] == true)
    #expect(accounts[0].providers == ["password"])
    #expect(accounts[1].passwordHash == nil && accounts[1].passwordNote?.contains("--db") == true)
    // The record writes back to the same keys.
    #expect(try PortableAccount(json: accounts[0].json) == accounts[0])
  }

  @Test func badLinesNameTheLine() {
    #expect(throws: PortableAccountError("line 2: email_verified is not true or false")) {
      try PortableAccountReader.read("{\"email\":\"a@x.io\"}\n{\"email_verified\":\"yes\"}\n")
    }
    #expect(throws: PortableAccountError("line 1: not valid JSON (expected a string key at column 2)")) {
      try PortableAccountReader.read("{oops\n")
    }
    // A line cut short says where it ended (column counts from the line's first byte).
    #expect(throws: PortableAccountError("line 2: not valid JSON (unterminated string at column 17)")) {
      try PortableAccountReader.read(#"{"email":"a@example.com"}"# + "\n" + #"  {"email":"b@ex"#)
    }
  }

  @Test func firebaseFormatWithAndWithoutHashConfig() throws {
    let text = """
      {"users":[{"localId":"u1","email":"a@x.io","emailVerified":true,"passwordHash":"lSrfV15cpx95_sZS2W9c9Kp6i_LVgQNDNC_qzrCnh1SAyZvqmZqAjTdn3aoItz-VHjoZilo78198JAdRuid5lQ==","salt":"42xEC+ixf3L2lw==","createdAt":"1508893925000","customAttributes":"{\\"admin\\":true}","providerUserInfo":[{"providerId":"password"}]}]}
      """
    let config = FirebaseHashConfig(signerKey: "c2s=", saltSeparator: "Bw==", rounds: 8, memoryCost: 14)
    let (format, accounts) = try PortableAccountReader.read(text, hashConfig: config)
    #expect(format == .firebase)
    #expect(
      accounts[0].passwordHash
        == "$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=c2s=$42xEC+ixf3L2lw==$lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
    )
    #expect(accounts[0].createdAt == "2017-10-25T01:12:05.000Z")
    #expect(accounts[0].appMetadata?["claims"]?["admin"] == true && accounts[0].providers == ["password"])
    let (_, unhashed) = try PortableAccountReader.read(text)
    #expect(unhashed[0].passwordHash == nil && unhashed[0].passwordNote?.contains("--hash-config") == true)
  }

  /// A timestamp no clock could have written is refused by name, not sent on (nor trapped on).
  @Test(arguments: ["\"-9223372036854775808\"", "9223372036854775807", "-1", "253402300800000"])
  func anImpossibleTimeNamesTheRecord(_ value: String) {
    let text =
      #"{"users":[{"localId":"u1","email":"a@x.io"},{"localId":"u2","email":"b@x.io","lastLoginAt":\#(value)}]}"#
    #expect(
      throws: PortableAccountError(
        "users[1]: lastLoginAt \(value.filter { $0 != "\"" }) is not a time between 1970 and 9999 (milliseconds)")
    ) {
      try PortableAccountReader.read(text)
    }
  }

  /// A byte-order mark (Windows editors) is not content: the file reads as it would without it.
  @Test func aByteOrderMarkIsSkipped() throws {
    let (jsonlFormat, records) = try PortableAccountReader.read("\u{FEFF}{\"email\":\"a@b.co\"}\n")
    #expect(jsonlFormat == .jsonl && records.map(\.email) == ["a@b.co"])
    let (firebaseFormat, users) = try PortableAccountReader.read(
      "\u{FEFF}{\"users\":[{\"localId\":\"x\",\"email\":\"a@b.co\"}]}")
    #expect(firebaseFormat == .firebase && users.map(\.email) == ["a@b.co"])
    #expect(throws: PortableAccountError("\"users\" is not a list of accounts")) {
      try PortableAccountReader.read("{\"users\":{}}")
    }
  }

  @Test func csvWithQuotedJSONColumns() throws {
    let text =
      "id,email,email_verified,user_metadata,password_hash\r\n"
      + "u1,a@x.io,true,\"{\"\"plan\"\":\"\"pro\"\"}\",$2b$04$0123456789012345678901uVWXYZabcdefghijklmnopqrstuvwxy\r\n"
      + "u2,\"b,c@x.io\",false,,\r\n"
    let (format, accounts) = try PortableAccountReader.read(text)
    #expect(format == .csv)
    #expect(accounts.count == 2)
    #expect(accounts[0].emailVerified == true && accounts[0].passwordHash?.hasPrefix("$2b$04$") == true)
    #expect(accounts[1].email == "b,c@x.io" && accounts[1].emailVerified == false && accounts[1].userMetadata == nil)
  }

  @Test func hashConfigFileShapes() throws {
    let plain = try FirebaseHashConfig(
      json: try JSON.parse(
        #"{"algorithm":"SCRYPT","signerKey":"c2s-","saltSeparator":"Bw","rounds":8,"memoryCost":14}"#))
    #expect(plain == FirebaseHashConfig(signerKey: "c2s+", saltSeparator: "Bw==", rounds: 8, memoryCost: 14))
    let v2 = try FirebaseHashConfig(
      json: try JSON.parse(
        #"{"signIn":{"hashConfig":{"algorithm":"SCRYPT","signerKey":"c2s+","rounds":4,"memoryCost":8}}}"#))
    #expect(v2.rounds == 4 && v2.saltSeparator == "")
    // The other kinds batchCreate takes are read with their parameters; anything else is refused.
    let hmac = try FirebaseHashConfig(json: try JSON.parse(#"{"algorithm":"HMAC_SHA256","signerKey":"c2s-"}"#))
    #expect(hmac.algorithm == "HMAC_SHA256" && hmac.signerKey == "c2s+" && !hmac.isFirebaseScrypt)
    #expect(throws: PortableAccountError.self) {
      try FirebaseHashConfig(json: try JSON.parse(#"{"algorithm":"HMAC_SHA256"}"#))
    }
    #expect(throws: PortableAccountError.self) {
      try FirebaseHashConfig(json: try JSON.parse(#"{"algorithm":"ARGON3"}"#))
    }
    let standard = try FirebaseHashConfig(
      json: try JSON.parse(
        #"{"algorithm":"STANDARD_SCRYPT","memoryCost":1024,"blockSize":8,"parallelization":2,"dkLen":64}"#))
    let string = try #require(PasswordHashString.firebaseImport(standard, salt: "c2FsdA", hash: "aGFzaA"))
    #expect(PasswordHashString.kind(of: string) == .firebaseImport(standard, salt: "c2FsdA==", hash: "aGFzaA=="))
  }
}
