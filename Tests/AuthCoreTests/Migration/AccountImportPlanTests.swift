import Foundation
import JSONKit
import Testing

@testable import AuthCore

@Suite("user import: hash strings and what each backend is sent")
struct AccountImportPlanTests {
  static let bcrypt = "$2a$10$0123456789012345678901uVWXYZabcdefghijklmnopqrstuvwxy"
  static let fbscrypt =
    "$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=ou9tdYTGyYm8kuR6Dt0Bp0kDuAYoXrK16mbZO4yGwAn3oLspjnN0/c41v8xZnO1n14J3MjKj1b2g6AUCAlFwMw==$C0sHCg9ek77hsg==$zKVTMvnWVw5BBOZNUdnsalx4c4c7y/w7IS5p6Ut2+CfEFFlz37J9huyQfov4iizN8dbjvEJlM5tQaJP84+hfTw=="

  @Test func hashKinds() {
    #expect(PasswordHashString.kind(of: Self.bcrypt) == .bcrypt)
    #expect(PasswordHashString.kind(of: "$argon2id$v=19$m=16,t=2,p=1$c2FsdA$aGFzaA") == .argon2)
    #expect(PasswordHashString.kind(of: "md5:abc") == .unknown)
    #expect(
      PasswordHashString.kind(of: "$fbscrypt$v=1,n=14,r=8,p=2,ss=Bw==,sk=AA==$AA==$AA==") == .unknown, "p must be 1")
    guard case .firebaseScrypt(let config, let salt, let hash) = PasswordHashString.kind(of: Self.fbscrypt) else {
      Issue.record("not read as Firebase scrypt")
      return
    }
    #expect(
      config.rounds == 8 && config.memoryCost == 14 && config.saltSeparator == "Bw==" && salt == "C0sHCg9ek77hsg==")
    // And back: the same string.
    #expect(PasswordHashString.firebaseScrypt(config, salt: salt, hash: hash) == Self.fbscrypt)
    #expect(PasswordHashString.standardBase64("-_8") == "+/8=")
    // scrypt's N written instead of its log2 is read as memoryCost, and written back as GoTrue reads it.
    let withN = Self.fbscrypt.replacingOccurrences(of: "n=14,", with: "n=16384,")
    guard case .firebaseScrypt(let fromN, _, _) = PasswordHashString.kind(of: withN) else {
      Issue.record("n=16384 not read")
      return
    }
    #expect(fromN.memoryCost == 14)
    var account = PortableAccount(email: "n@example.com")
    account.passwordHash = withN
    #expect(AccountImportPlan.supabaseBody(account, now: 0).body["password_hash"]?.string == Self.fbscrypt)
    #expect(PasswordHashString.kind(of: Self.fbscrypt.replacingOccurrences(of: "n=14,", with: "n=100,")) == .unknown)
  }

  @Test func standardBase64IsTheSameWithOrWithoutDecoding() {
    var generator = SystemRandomNumberGenerator()
    for count in 0..<40 {
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let standard = Data(bytes).base64EncodedString()
      #expect(PasswordHashString.standardBase64(standard) == standard)
      let urlSafe = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      #expect(PasswordHashString.standardBase64(urlSafe.replacingOccurrences(of: "=", with: "")) == standard)
    }
    // Bits past the last byte are dropped, as decoding and encoding again drops them.
    let loose = PasswordHashString.standardBase64("QR==")
    #expect(loose == nil || loose == "QQ==")
    #expect(PasswordHashString.standardBase64("Q===") == nil)
    #expect(PasswordHashString.standardBase64("QQ==QQ==") == nil)
  }

  @Test func firebaseEntriesByHashKind() {
    var account = PortableAccount(id: "3f2a0000-0000-4000-8000-000000000001", email: "ada@example.com")
    account.passwordHash = Self.bcrypt
    account.emailVerified = true
    account.appMetadata = JSONObject([("provider", "email"), ("role", "staff")])
    account.userMetadata = JSONObject([("full_name", "Ada L")])
    let bcrypt = AccountImportPlan.firebaseEntry(account, localId: account.id ?? "", now: 0)
    #expect(bcrypt.group == .bcrypt && bcrypt.withoutPassword == nil)
    #expect(bcrypt.entry["passwordHash"]?.string.flatMap { Data(base64Encoded: $0) } == Data(Self.bcrypt.utf8))
    #expect(bcrypt.entry["customAttributes"] == "{\"role\":\"staff\"}" && bcrypt.entry["displayName"] == "Ada L")
    #expect(AccountImportPlan.FirebaseHashGroup.bcrypt.fields["hashAlgorithm"] == "BCRYPT")

    account.passwordHash = Self.fbscrypt
    let scrypt = AccountImportPlan.firebaseEntry(account, localId: "x", now: 0)
    guard case .scrypt(let config) = scrypt.group else {
      Issue.record("not grouped as SCRYPT")
      return
    }
    #expect(
      scrypt.group.fields["memoryCost"] == 14 && scrypt.group.fields["rounds"] == 8 && config.saltSeparator == "Bw==")
    #expect(scrypt.entry["salt"] == "C0sHCg9ek77hsg==")

    account.passwordHash = "$argon2id$v=19$m=16,t=2,p=1$c2FsdA$aGFzaA"
    let argon = AccountImportPlan.firebaseEntry(account, localId: "x", now: 0)
    #expect(
      argon.group == .none && argon.withoutPassword == "Firebase cannot import argon2 hashes"
        && argon.entry["passwordHash"] == nil)
  }

  @Test func supabaseBodies() {
    var account = PortableAccount(id: "AbCdEfGhIjKlMnOpQrStUvWxYz12", email: "ada@example.com")
    account.passwordHash = Self.fbscrypt
    account.displayName = "Ada"
    account.disabled = true
    account.appMetadata = JSONObject([("claims", ["admin": true]), ("provider", "password")])
    let (body, without) = AccountImportPlan.supabaseBody(account, now: 1_700_000_000)
    #expect(without == nil && body["id"] == nil, "a Firebase id is not a UUID: GoTrue makes one")
    #expect(body["password_hash"]?.string == Self.fbscrypt && body["ban_duration"] == "876000h")
    #expect(body["user_metadata"] == ["full_name": "Ada"] && body["app_metadata"] == ["claims": ["admin": true]])
    #expect(body["email_confirm"] == false)

    var banned = PortableAccount(id: "3F2A0000-0000-4000-8000-000000000001", email: "b@example.com")
    banned.bannedUntil = "2023-11-14T22:13:20Z"
    let (second, reason) = AccountImportPlan.supabaseBody(banned, now: 1_700_000_000 - 7200)
    #expect(second["id"] == "3f2a0000-0000-4000-8000-000000000001" && second["ban_duration"] == "7200s")
    #expect(reason == "no password hash in the record")
  }
}
