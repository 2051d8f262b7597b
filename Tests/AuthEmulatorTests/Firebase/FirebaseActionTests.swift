import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase /emulator/action links")
struct FirebaseActionTests {
  /// The path and query of an action link.
  private func target(_ link: String) -> String {
    guard let range = link.range(of: "/emulator/action") else { return link }
    return String(link[range.lowerBound...])
  }

  @Test func resetLinkNeedsANewPasswordAndWorksOnce() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("a@x.io")
    _ = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "a@x.io"])
    let link = try #require(await harness.oobCodes().first?["oobLink"]?.string)

    let missing = await harness.send("GET", target(link))
    #expect(missing.status == 400)
    #expect(missing.json["authEmulator"]?["error"]?.string == "missing newPassword query parameter")
    #expect(missing.json["authEmulator"]?["urlTemplate"]?.string == link + "&newPassword=NEW_PASSWORD_HERE")
    #expect(await harness.send("GET", target(link) + "&newPassword=NEW_PASSWORD_HERE").status == 400)

    let done = await harness.send("GET", target(link) + "&newPassword=secret2")
    #expect(done.status == 200)
    #expect(
      done.json == ["authEmulator": ["success": "The password has been successfully updated.", "email": "a@x.io"]])
    #expect(await harness.signIn("a@x.io", "secret2").status == 200)
    let again = await harness.send("GET", target(link) + "&newPassword=secret3")
    #expect(again.status == 400)
  }

  @Test func verifyLinkAppliesTheCodeAndRedirects() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    _ = await harness.call(
      "sendOobCode",
      [
        "requestType": "VERIFY_EMAIL", "idToken": created["idToken"] ?? "",
        "continueUrl": "https://app.example/done",
      ])
    let link = try #require(await harness.oobCodes().first?["oobLink"]?.string)
    #expect(link.contains("continueUrl=https%3A%2F%2Fapp.example%2Fdone"))
    let reply = await harness.send("GET", target(link))
    #expect(reply.status == 303)
    #expect(reply.headers.contains { $0.name == "Location" && $0.value == "https://app.example/done" })
    let user = await harness.call("lookup", ["idToken": created["idToken"] ?? ""])
    #expect(user["users"]?[0]?["emailVerified"]?.bool == true)
    let used = await harness.send("GET", target(link))
    #expect(
      used.json["authEmulator"]?["error"]?.string
        == "Your request to verify your email has expired or the link has already been used.")
  }

  @Test func badLinks() async throws {
    let harness = try FirebaseHarness()
    #expect(
      await harness.send("GET", "/emulator/action?mode=resetPassword&oobCode=x").json["authEmulator"]?["error"]?.string
        == "missing apiKey query parameter")
    #expect(
      await harness.send("GET", "/emulator/action?mode=nope&oobCode=x&apiKey=k").json["authEmulator"]?["error"]?.string
        == "Invalid mode")
  }
}
