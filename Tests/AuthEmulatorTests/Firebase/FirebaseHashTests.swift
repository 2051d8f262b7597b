import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase password hashes: hash config, admin reads, imports, rehash")
struct FirebaseHashTests {
  func hashConfig(_ harness: FirebaseHarness) async -> JSON {
    await harness.send(
      "GET", "/identitytoolkit.googleapis.com/v2/projects/\(harness.project)/config",
      headers: [("Authorization", "Bearer owner")]
    ).json["signIn"]?["hashConfig"] ?? .null
  }

  @Test func adminReadsTheProjectsScryptHashAndSalt() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io", "secret-one")
    let config = await hashConfig(harness)
    #expect(config["algorithm"]?.string == "SCRYPT" && config["rounds"]?.int == 4 && config["memoryCost"]?.int == 8)
    let user = await harness.admin("accounts:lookup", ["localId": [created["localId"] ?? ""]])["users"]?[0]
    let salt = try #require(user?["salt"]?.string.flatMap { Data(base64Encoded: $0) })
    let hash = try #require(user?["passwordHash"]?.string.flatMap { Data(base64Encoded: $0) })
    let parameters = FirebaseScryptParameters(
      signerKey: Array(Data(base64Encoded: config["signerKey"]?.string ?? "") ?? Data()),
      saltSeparator: Array(Data(base64Encoded: config["saltSeparator"]?.string ?? "") ?? Data()), rounds: 4,
      memoryCost: 8)
    #expect(parameters.hash("secret-one", salt: Array(salt)) == Array(hash))
    let listed = await harness.admin("accounts:batchGet?maxResults=10", method: "GET")["users"]?[0]
    #expect(listed?["passwordHash"]?.string == user?["passwordHash"]?.string && listed?["salt"] != nil)
    // The user's own lookup keeps production's redaction.
    let own = await harness.call("lookup", ["idToken": created["idToken"] ?? ""])["users"]?[0]
    #expect(own?["passwordHash"]?.string == "UkVEQUNURUQ=" && own?["salt"] == nil)
  }

  @Test func importsScryptAndBcryptThatSignInAndAreRehashed() async throws {
    let harness = try FirebaseHarness()
    let sample = FirebaseScryptTests.sample
    let salt: [UInt8] = Array("saltsalt".utf8)
    let scrypt = try #require(sample.hash("scrypt-pw", salt: salt))
    let urlSafe: ([UInt8]) -> String = {
      Data($0).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
    let reply = await harness.admin(
      "accounts:batchCreate",
      [
        "hashAlgorithm": "SCRYPT", "signerKey": .string(urlSafe(sample.signerKey)),
        "saltSeparator": .string(urlSafe(sample.saltSeparator)),
        "rounds": 8, "memoryCost": 14,
        "users": [
          [
            "localId": "s1", "email": "s@x.io", "passwordHash": .string(urlSafe(scrypt)),
            "salt": .string(urlSafe(salt)),
          ]
        ],
      ])
    #expect(reply["error"] == [])
    let bcrypt = PasswordHasher.hash("bcrypt-pw", cost: 4)
    let second = await harness.admin(
      "accounts:batchCreate",
      [
        "hashAlgorithm": "BCRYPT",
        "users": [
          ["localId": "b1", "email": "b@x.io", "passwordHash": .string(Data(bcrypt.utf8).base64EncodedString())],
          ["localId": "b2", "email": "c@x.io", "passwordHash": "bm90LWJjcnlwdA=="],
        ],
      ])
    #expect(second["error"] == [["index": 1, "message": "Invalid password hash."]])
    // Not yet the project's own hash: admin reads show none.
    #expect(await harness.admin("accounts:lookup", ["localId": ["s1"]])["users"]?[0]?["passwordHash"] == nil)
    #expect(await harness.signIn("s@x.io", "wrong-pw").error == "INVALID_PASSWORD")
    #expect(await harness.signIn("s@x.io", "scrypt-pw").status == 200)
    #expect(await harness.signIn("b@x.io", "bcrypt-pw").status == 200)
    for id in ["s1", "b1"] {
      let user = await harness.admin("accounts:lookup", ["localId": [.string(id)]])["users"]?[0]
      #expect(
        user?["passwordHash"]?.string?.isEmpty == false && user?["salt"] != nil, "rehashed to the project's scrypt")
    }
    #expect(await harness.signIn("s@x.io", "scrypt-pw").status == 200)
    #expect(await harness.signIn("b@x.io", "bcrypt-pw").status == 200)
  }

  @Test func hashAlgorithmIsRequiredAndChecked() async throws {
    let harness = try FirebaseHarness()
    let users: JSON = [["localId": "x", "email": "x@x.io", "passwordHash": "c2NyeXB0"]]
    #expect(await harness.admin("accounts:batchCreate", ["users": users]).error == "MISSING_HASH_ALGORITHM")
    #expect(
      await harness.admin(
        "accounts:batchCreate", ["hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 14, "users": users]
      ).error
        == "MISSING_SIGNER_KEY")
    #expect(
      await harness.admin("accounts:batchCreate", ["hashAlgorithm": "ARGON3", "users": users]).error?.contains("ARGON3")
        == true)
  }

  @Test func storesWithBcryptHashesAndNoHashConfigStillSignIn() async throws {
    let store = FirebaseMemoryStore()
    // An account as older emulators stored it: a bcrypt hash, and a config without hash fields.
    try store.put(
      FirebaseProject.usersTable, key: "demo-test/old",
      [
        "projectId": "demo-test", "localId": "old", "email": "old@x.io",
        "passwordHash": .string(PasswordHasher.hash("old-pw", cost: 4)),
        "createdAt": 1_700_000_000_000,
      ])
    try store.put(
      FirebaseProject.configTable, key: "demo-test", ["projectId": "demo-test", "allowDuplicateEmails": false])
    let first = try FirebaseHarness(store: store)
    #expect(await first.signIn("old@x.io", "old-pw").status == 200)
    let config = await hashConfig(first)
    let second = try FirebaseHarness(store: store)
    #expect(await hashConfig(second) == config, "the hash config is stored once made")
    #expect(await second.admin("accounts:lookup", ["localId": ["old"]])["users"]?[0]?["salt"] != nil)
    #expect(await second.signIn("old@x.io", "old-pw").status == 200)
  }
}
