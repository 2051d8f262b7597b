import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase body normalisation, routing and persistence")
struct FirebaseStateTests {
  @Test func camelCaseMatchesLodash() {
    #expect(FirebaseBody.camelCase("refresh_token") == "refreshToken")
    #expect(FirebaseBody.camelCase("grant_type") == "grantType")
    #expect(FirebaseBody.camelCase("idToken") == "idToken")
    #expect(FirebaseBody.camelCase("localId") == "localId")
    #expect(FirebaseBody.camelCase("OOBCode") == "oobCode")
    #expect(FirebaseBody.camelCase("return-secure-token") == "returnSecureToken")
    #expect(FirebaseBody.camelCase("iOSBundleId") == "iOsBundleId")
  }

  @Test func theShortCutForKeysAlreadyInCamelCaseAgreesWithTheWordByWordWay() {
    let letters = Array("aAbZz_1-")
    var generator = SystemRandomNumberGenerator()
    var keys = ["localId", "aB", "aBC", "ABc", "a", "A", "", "passwordHash", "iOSBundleId", "rawId"]
    for _ in 0..<2_000 {
      keys.append(String((0..<Int.random(in: 1...6, using: &generator)).map { _ in letters.randomElement()! }))
    }
    for key in keys { #expect(FirebaseBody.camelCase(key) == FirebaseBody.camelCaseByWords(key), "\(key)") }
  }

  @Test func routesRecogniseOnlyFirebasePaths() {
    func route(_ method: String, _ uri: String) -> FirebaseRoute? {
      FirebaseRoute(ServerRequest(method: method, uri: uri))
    }
    #expect(
      route("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k")
        == .identityToolkit(.signUp, project: nil))
    #expect(
      route("POST", "/identitytoolkit.googleapis.com/v1/projects/p%2D1/accounts")
        == .identityToolkit(.signUp, project: "p-1"))
    #expect(
      route("GET", "/identitytoolkit.googleapis.com/v1/projects/p/accounts:batchGet?maxResults=2")
        == .identityToolkit(.batchGet, project: "p"))
    #expect(route("GET", "/identitytoolkit.googleapis.com/v1/accounts:signUp") == .notFound)
    #expect(route("DELETE", "/emulator/v1/projects/p/accounts") == .emulator(.deleteAccounts, project: "p"))
    #expect(route("GET", "/emulator/v1/outbox") == nil)
    #expect(route("GET", "/auth/v1/health") == nil)
  }

  @Test func absoluteURIs() {
    #expect(FirebaseRules.isAbsoluteURI("http://localhost/"))
    #expect(FirebaseRules.isAbsoluteURI("https://example.com/path?x=1"))
    #expect(FirebaseRules.isAbsoluteURI("myapp:callback"))
    #expect(!FirebaseRules.isAbsoluteURI("localhost"))
    #expect(!FirebaseRules.isAbsoluteURI("http://"))
    #expect(!FirebaseRules.isAbsoluteURI("/relative"))
  }

  /// The emulator's e-mail rule (`x@y`: one `@`, something either side), as the split it replaced
  /// read it, for generated strings of the characters that matter.
  @Test func emailsHaveOneAtWithSomethingEitherSide() {
    var random = SplitMix64(seed: 0xE3A1)
    for _ in 0..<2_000 {
      let email = String((0..<Int(random.next() % 7)).map { _ in Array("a@é.")[Int(random.next() % 4)] })
      let parts = email.split(separator: "@", omittingEmptySubsequences: false)
      #expect(
        FirebaseRules.isValidEmail(email) == (parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty), "\(email)")
    }
  }

  @Test func usersCodesAndConfigSurviveARestart() async throws {
    let store = FirebaseMemoryStore()
    let clock = ManualTestClock(.firebaseTestStart)
    let first = try FirebaseHarness(store: store, clock: clock)
    let created = await first.signUp("a@x.io", name: "Alice")
    _ = await first.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "a@x.io"])
    _ = await first.call("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": created["idToken"] ?? ""])
    _ = await first.patchConfig(["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
    let codesBefore = await first.oobCodes()

    let second = try FirebaseHarness(store: store, clock: clock)
    #expect(await second.oobCodes() == codesBefore, "codes keep their creation order")
    #expect(await second.signIn("nobody@x.io").error == "INVALID_LOGIN_CREDENTIALS", "config persisted")
    #expect(
      await second.call("lookup", ["idToken": created["idToken"] ?? ""])["users"]?[0]?["displayName"]?.string == "Alice"
    )
    #expect(await second.refresh(created.string("refreshToken")).status == 200)
    let code = try #require(codesBefore.first?["oobCode"])
    #expect(await second.call("resetPassword", ["oobCode": code, "newPassword": "secret2"]).status == 200)

    let third = try FirebaseHarness(store: store, clock: clock)
    #expect(await third.oobCodes().count == 1, "consumed codes stay consumed")
    #expect(await third.signIn("a@x.io", "secret2").status == 200)
    _ = await third.send("DELETE", "/emulator/v1/projects/demo-test/accounts")
    #expect(store.documents(FirebaseProject.usersTable).isEmpty)
  }
}
