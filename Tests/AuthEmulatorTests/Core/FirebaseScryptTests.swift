import Foundation
import Testing

@testable import AuthEmulator

@Suite("Firebase modified scrypt and stored hashes")
struct FirebaseScryptTests {
  /// The sample project parameters published with Firebase's scrypt tool.
  static let sample = FirebaseScryptParameters(
    signerKey: Array(
      Data(base64Encoded: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")
        ?? Data()),
    saltSeparator: [0x07], rounds: 8, memoryCost: 14)

  @Test func publishedKnownValues() {
    let salt = Array(Data(base64Encoded: "42xEC+ixf3L2lw==") ?? Data())
    #expect(
      Self.sample.hash("user1password", salt: salt).map { Data($0).base64EncodedString() }
        == "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")
    #expect(
      Self.sample.hash("hunter2", salt: salt).map { Data($0).base64EncodedString() }
        == "70k8Vg5B3/OrvJOiqusnasv0dLcBHoDAqJrJr7TRLBfMw4MitWx51YXJYFdGiyMbMeKtWtLf5HiBDcN0SUOm4A==")
  }

  /// GoTrue's own test string (password `mytestpassword`).
  static let goTrueExample =
    "$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=ou9tdYTGyYm8kuR6Dt0Bp0kDuAYoXrK16mbZO4yGwAn3oLspjnN0/c41v8xZnO1n14J3MjKj1b2g6AUCAlFwMw==$C0sHCg9ek77hsg==$zKVTMvnWVw5BBOZNUdnsalx4c4c7y/w7IS5p6Ut2+CfEFFlz37J9huyQfov4iizN8dbjvEJlM5tQaJP84+hfTw=="

  @Test func goTrueStringsVerifyAndRoundTrip() throws {
    #expect(StoredPasswordHash.check("mytestpassword", against: Self.goTrueExample) == .match)
    #expect(StoredPasswordHash.check("mytestpassword1", against: Self.goTrueExample) == .mismatch)
    let parsed = try FirebaseScryptHash.parse(Self.goTrueExample).get()
    #expect(parsed.parameters.memoryCost == 14 && parsed.parameters.rounds == 8)
    #expect(parsed.encoded == Self.goTrueExample)
  }

  @Test func goTrueRefusals() {
    let tail = ",ss=Bw==,sk=ou9t$C0sHCg9ek77hsg==$zKVT"
    let cases: [(String, FirebaseScryptFormatError)] = [
      ("$fbscrypt$v=2,n=14,r=8,p=1" + tail, .version("2")),
      ("$fbscrypt$v=1,n=4294967297,r=8,p=1" + tail, .parameter("n", "4294967297")),
      ("$fbscrypt$v=1,n=0,r=8,p=1" + tail, .zero("n")),
      ("$fbscrypt$v=1,n=14,r=0,p=1" + tail, .zero("r")),
      ("$fbscrypt$v=1,n=14,r=8,p=256" + tail, .parameter("p", "256")),
      ("$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=ou9tdA==$C0sHCg9ek77hsg==$!!!", .base64("hash")),
      ("$fbscrypt$invalid", .format),
    ]
    for (text, error) in cases {
      #expect(throws: error) { try FirebaseScryptHash.parse(text).get() }
    }
  }

  @Test func emulatorDefaultsAreCheapAndRandomPerProject() throws {
    let one = FirebaseScryptParameters.random()
    let two = FirebaseScryptParameters.random()
    #expect(one.signerKey != two.signerKey && one.signerKey.count == 64)
    #expect(one.rounds == 4 && one.memoryCost == 8)
    let made = try #require(one.newHash("correct horse"))
    let stored = FirebaseScryptHash(parameters: one, salt: made.salt, hash: made.hash).encoded
    #expect(StoredPasswordHash.check("correct horse", against: stored) == .match)
    #expect(StoredPasswordHash.check("wrong horse", against: stored) == .mismatch)
  }

  @Test func bcryptAndArgon2() {
    let bcrypt = PasswordHasher.hash("test-pw", cost: 4)
    #expect(StoredPasswordHash.check("test-pw", against: bcrypt) == .match)
    #expect(StoredPasswordHash.check("test-px", against: bcrypt) == .mismatch)
    // GoTrue's bcrypt test string (password `test`), $2y$.
    #expect(
      StoredPasswordHash.check("test", against: "$2y$04$mIJxfrCaEI3GukZe11CiXublhEFanu5.ododkll1WphfSp6pn4zIu")
        == .match)
    // GoTrue's argon2 test strings (password `test`), through libargon2.
    let argon2id = "$argon2id$v=19$m=32,t=3,p=2$SFVpOWJ0eXhjRzVkdGN1RQ$RXnb8rh7LaDcn07xsssqqulZYXOM/EUCEFMVcAcyYVk"
    let argon2i = "$argon2i$v=19$m=16,t=2,p=1$bGJRWThNOHJJTVBSdHl2dQ$NfEnUOuUpb7F2fQkgFUG4g"
    for hash in [argon2id, argon2i] {
      #expect(StoredPasswordHash.check("test", against: hash) == .match)
      #expect(StoredPasswordHash.check("test1", against: hash) == .mismatch)
    }
    #expect(
      StoredPasswordHash.check(
        "test", against: "$argon2d$v=19$m=16,t=2,p=1$bGJRWThNOHJJTVBSdHl2dQ$NfEnUOuUpb7F2fQkgFUG4g") == .mismatch)
  }
}
