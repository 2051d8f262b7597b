import AuthCore
import Essentials
import JSONKit
import Testing

/// The portable record's three encodings and the `$fbscrypt$` layout GoTrue parses.
@Suite struct ExportFormatTests {
  static let account = PortableAccount(
    id: "u1", email: "ada@example.com", emailVerified: true, displayName: "Ada, \"the\" first",
    createdAt: "2024-03-01T00:00:00.5Z",
    userMetadata: ["plan": "pro"], appMetadata: ["claims": ["role": "admin"]], providers: ["password", "google.com"],
    identities: [PortableIdentity(provider: "google.com", id: "g-1", email: "ada@example.com")], source: .firebase,
    passwordHash: "$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=c2s=$c2FsdA==$aGFzaA==")

  @Test func jsonlKeysInTheSharedOrder() throws {
    let line = ExportFormat.jsonl.record(Self.account, first: true)
    #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"))
    let object = try #require(try JSON.parse(line).object)
    #expect(object.keys == PortableAccount.keys)
    #expect(object["password_note"] == .null && object["phone"] == .null)
  }

  @Test func csvQuotesWhatNeedsIt() {
    #expect(ExportFormat.csv.header == PortableAccount.keys.joined(separator: ",") + "\n")
    let row = ExportFormat.csv.record(Self.account, first: true)
    #expect(row.hasPrefix("u1,ada@example.com,true,,\"Ada, \"\"the\"\" first\",false,,2024-03-01T00:00:00.5Z,,"))
    #expect(row.contains(#","{""plan"":""pro""}","#))
  }

  @Test func firebaseImportRecordSplitsTheScryptHash() throws {
    let text =
      ExportFormat.firebase.header + ExportFormat.firebase.record(Self.account, first: true)
      + ExportFormat.firebase.footer
    let user = try #require(try JSON.parse(text)["users"]?[0])
    #expect(user["passwordHash"] == "aGFzaA==" && user["salt"] == "c2FsdA==")
    #expect(user["createdAt"] == "1709251200500")
    #expect(user["customAttributes"] == #"{"role":"admin"}"#)
    #expect(user["providerUserInfo"] == [["providerId": "google.com", "rawId": "g-1", "email": "ada@example.com"]])
    var bcrypt = Self.account
    bcrypt.passwordHash = "$2a$10$abcdefghijklmnopqrstuuJ3aLzTMuVq3JyM6xvCiT6i1Lz0Nw5Ku"
    let second = try JSON.parse(ExportFormat.firebase.record(bcrypt, first: true))
    #expect(second["passwordHash"]?.string == Base64.encode(Array(bcrypt.passwordHash!.utf8)))
    #expect(second["salt"] == nil)
  }

  @Test func fbscryptHasGoTruesLayout() {
    let config = FirebaseHashConfig(signerKey: "c2s-_w", saltSeparator: "Bw", rounds: 8, memoryCost: 14)
    // n is the memory cost as GoTrue reads it (a power of two: 2^14), base64 in the standard alphabet.
    #expect(
      config.passwordHash(hash: "aGFz_-", salt: "c2F") == "$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=c2s+/w==$c2F=$aGFz/+=="
    )
    #expect(
      FirebaseHashConfig.from(projectConfig: [
        "signIn": ["hashConfig": ["algorithm": "SCRYPT", "rounds": 8, "memoryCost": 14]]
      ]) == nil)
    #expect(
      FirebaseHashConfig.from(projectConfig: [
        "algorithm": "HMAC_SHA256", "signerKey": "a2V5", "rounds": 8, "memoryCost": 14,
      ]) == nil)
    // A tenant's config has it at the top.
    #expect(
      FirebaseHashConfig.from(projectConfig: [
        "hashConfig": ["signerKey": "a2V5", "saltSeparator": "", "rounds": 8, "memoryCost": 14]
      ])?.memoryCost == 14)
  }
}
