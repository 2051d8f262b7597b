import Essentials
import Foundation
import JSONKit
import Synchronization
import Testing

@testable import AuthEmulator

@Suite("SHA-224, keys, time format")
struct CryptoTests {
  @Test(
    "SHA-224 test vectors (FIPS 180-4)",
    arguments: [
      ("abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
      ("", "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"
      ),
    ])
  func sha224(input: String, digest: String) {
    #expect(EmulatorJWT.sha224Hex(input) == digest)
  }

  @Test("the default secret gives the Supabase CLI's well-known demo keys")
  func demoKeys() {
    let secret = EmulatorConfig().jwtSecret
    #expect(
      Emulator.key(role: "anon", secret: secret)
        == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0"
    )
    #expect(
      Emulator.key(role: "service_role", secret: secret)
        == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU"
    )
  }

  @Test(
    "Go time format: trailing zeros dropped, none on whole seconds",
    arguments: [
      (Int64(0), "1970-01-01T00:00:00Z"),
      (Int64(1_770_653_450_527_320), "2026-02-09T16:10:50.52732Z"),
      (Int64(951_782_400_100_000), "2000-02-29T00:00:00.1Z"),
      (Int64(4_102_444_799_000_001), "2099-12-31T23:59:59.000001Z"),
      (Int64(-1), "1969-12-31T23:59:59.999999Z"),
    ])
  func goTime(micros: Int64, text: String) {
    #expect(GoTime.format(micros) == text)
  }

  @Test func aDateBeyondMicrosSaturates() {
    #expect(Date(timeIntervalSince1970: 1e300).micros == .max)
    #expect(Date(timeIntervalSince1970: -1e300).micros == .min)
    #expect(Date(timeIntervalSince1970: 1.5).micros == 1_500_000)
    let earliest = GoTime.format(.min)
    #expect(earliest.hasPrefix("-") && earliest.hasSuffix(".224192Z"), "\(earliest)")
  }

  @Test("refresh tokens and codes")
  func randomShapes() {
    let token = EmulatorRandom.refreshToken()
    #expect(token.count == 12)
    #expect(token.allSatisfy { $0.isLowercase || $0.isNumber })
    let otp = EmulatorRandom.otp()
    #expect(otp.count == 6 && otp.allSatisfy(\.isNumber))
  }

  @Test(
    "Go durations",
    arguments: [("24h", Int64(86_400_000_000)), ("1h30m", 5_400_000_000), ("1.5s", 1_500_000), ("0", 0)])
  func goDuration(text: String, micros: Int64) {
    #expect(GoTrueRules.parseGoDuration(text) == micros)
  }

  @Test("bad Go durations", arguments: ["", "h", "10", "1x", "1.2.3s"])
  func badGoDuration(text: String) {
    #expect(GoTrueRules.parseGoDuration(text) == nil)
  }
}

@Suite("Base64URL and JWT")
struct Base64URLTests {
  @Test("round trips every length; decoding accepts padding and the standard alphabet")
  func roundTrip() {
    for length in 0..<40 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
      #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }
    #expect(Base64URL.encode(Array("hi?>".utf8)) == "aGk_Pg")
    #expect(Base64URL.decode("aGk_Pg==") == Array("hi?>".utf8))
    #expect(Base64URL.decode("aGk/Pg") == Array("hi?>".utf8))
    #expect(Base64URL.decode("a") == nil)
    #expect(Base64URL.decode("a$bc") == nil)
  }

  @Test("HS256: verify accepts our tokens, refuses other secrets, bad shapes and alg none")
  func hs256() {
    let token = EmulatorJWT.signHS256(["sub": "x", "n": 1], secret: "k")
    #expect(EmulatorJWT.verifyHS256(token, secret: "k") == ["sub": "x", "n": 1])
    #expect(EmulatorJWT.verifyHS256(token, secret: "other") == nil)
    #expect(EmulatorJWT.verifyHS256(token + ".x", secret: "k") == nil)
    #expect(EmulatorJWT.verifyHS256("a.b", secret: "k") == nil)
    #expect(EmulatorJWT.verifyHS256(EmulatorJWT.unsigned(["sub": "x"]), secret: "k") == nil)
    #expect(EmulatorJWT.decodePayload(EmulatorJWT.unsigned(["sub": "x"])) == ["sub": "x"])
  }

  @Test("the pool hands out every byte once, across refills and from many threads at once")
  func pooledBytes() {
    let drawn = Mutex<[[UInt8]]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      // 4 × 300 × 37 bytes: several refills of the 4 KiB pool, with draws that straddle one.
      for _ in 0..<300 {
        let bytes = PooledRandom.bytes(37)
        drawn.withLock { $0.append(bytes) }
      }
    }
    let all = drawn.withLock { $0 }
    #expect(all.count == 1200 && all.allSatisfy { $0.count == 37 })
    #expect(Set(all).count == all.count)
    var histogram = [Int](repeating: 0, count: 256)
    for byte in all.joined() { histogram[Int(byte)] += 1 }
    // 44,400 bytes: about 173 of each value; none missing, none far off.
    #expect(histogram.allSatisfy { (100...260).contains($0) })
  }

  @Test("UUIDs: 8-4-4-4-12 ASCII hex digits only")
  func uuidShape() {
    #expect(GoTrueRules.isUUID("0b5b4f7e-3c1d-4a2b-9f00-abcdefABCDEF"))
    for text in [
      "", "0b5b4f7e3c1d4a2b9f00abcdefabcdef", "0b5b4f7e-3c1d-4a2b-9f00-abcdefabcde",
      "0b5b4f7e-3c1d-4a2b-9f00-abcdefabcdef0", "0b5b4f7e-3c1d-4a2b-9f00-abcdefabcdeg",
      "0b5b4f7e-3c1d-4a2b-9f00-abcdefabcde\u{FF10}", "0b5b4f7e-3c1d-4a2b-9f00_abcdefabcdef",
    ] {
      #expect(!GoTrueRules.isUUID(text), "\(text)")
    }
  }

  @Test("ids are lowercase version-4 UUIDs, all different")
  func uuids() {
    let ids = (0..<1_000).map { _ in EmulatorRandom.uuid() }
    #expect(Set(ids).count == ids.count)
    for id in ids {
      let parsed = UUID(uuidString: id)
      #expect(parsed?.uuidString.lowercased() == id)
      #expect(Array(id)[14] == "4")
      #expect("89ab".contains(Array(id)[19]))
    }
  }
}

@Suite("PasswordHasher")
struct PasswordHasherTests {
  @Test("NUL bytes and the 73rd byte count; ordinary passwords hash as plain bcrypt")
  func keyNormalisation() {
    let nul = PasswordHasher.hash("abc\u{0}defgh", cost: 4)
    #expect(PasswordHasher.verify("abc\u{0}defgh", hash: nul))
    #expect(!PasswordHasher.verify("abc\u{0}zzzzz", hash: nul))
    #expect(!PasswordHasher.verify("abc", hash: nul))
    let long = String(repeating: "a", count: 72)
    let longHash = PasswordHasher.hash(long + "b", cost: 4)
    #expect(PasswordHasher.verify(long + "b", hash: longHash))
    #expect(!PasswordHasher.verify(long + "c", hash: longHash))
    #expect(!PasswordHasher.verify(long, hash: longHash))
    #expect(PasswordHasher.key("hunter22") == "hunter22")
  }
}
