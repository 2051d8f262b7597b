import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

/// PKCE as GoTrue's `pkce.go` runs it: the challenge on the mail requests, `?code=` links,
/// `POST /token?grant_type=pkce` and its errors.
@Suite("PKCE")
struct PKCETests {
  static let verifier = "dBjftJeZ4CVP-mJ92IgiuFzq2LxD7k8TQd3PsWfXZL4"
  static let challenge = "bNxZ46JCIaAX48RdVMq0OVY4uQGQaX5Pr_LyjcnoHpA"

  static func pkce(
    _ email: String, method: String = "s256", challenge: String = challenge, password: String? = nil,
    type: String? = nil
  ) -> JSON {
    [
      "email": .string(email), "code_challenge": .string(challenge), "code_challenge_method": .string(method),
      "password": password.map { .string($0) } ?? .null, "type": type.map { .string($0) } ?? .null,
    ]
  }

  /// Follows the newest mail's link and returns the redirect's `Location`.
  static func follow(_ emu: TestEmulator, _ email: String) async throws -> String {
    let link = try #require(emu.outbox(email).last).link
    let path = String(link[try #require(link.range(of: "/auth/v1/")).lowerBound...])
    let response = await emu.send("GET", path)
    #expect(response.status == 303)
    return try #require(response.header("Location"))
  }

  static func code(in location: String) -> String? {
    guard let query = location.split(separator: "?", maxSplits: 1).last else { return nil }
    return FormCoding.decode(String(query)).first { $0.name == "code" }?.value
  }

  @Test("recover with a challenge: the link redirects with ?code=, the code and verifier give the session once")
  func recoveryRoundTrip() async throws {
    let emu = try TestEmulator()
    await emu.signUp("p@example.com")
    let sent = await emu.send(
      "POST", "recover?redirect_to=http%3A%2F%2Flocalhost%3A3000%2Freset%3Fnext%3D1", json: Self.pkce("p@example.com"))
    #expect(sent.status == 200)
    let mail = try #require(emu.outbox("p@example.com").last)
    #expect(mail.link.contains("token=pkce_"))
    let location = try await Self.follow(emu, "p@example.com")
    #expect(location.hasPrefix("http://localhost:3000/reset?code="))
    #expect(location.hasSuffix("&next=1"))
    #expect(!location.contains("access_token"))
    let code = try #require(Self.code(in: location))
    let wrong = await emu.send(
      "POST", "token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(Self.challenge)])
    #expect(wrong.status == 400)
    #expect(
      wrong.json == [
        "code": "bad_code_verifier", "message": "code challenge does not match previously saved code verifier",
      ])
    let session = await emu.send(
      "POST", "token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(Self.verifier)])
    #expect(session.status == 200)
    #expect(session.json["user"]?["email"] == "p@example.com")
    #expect(session.json.claims["amr"]?[0]?["method"] == "recovery")
    let again = await emu.send(
      "POST", "token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(Self.verifier)])
    #expect(again.status == 404)
    #expect(again.json == ["code": "flow_state_not_found", "message": "invalid flow state, no valid flow state found"])
  }

  @Test("a challenge without a method, or one of 5 characters, or with other characters: 400 validation_failed")
  func challengeChecks() async throws {
    let emu = try TestEmulator()
    await emu.signUp("c@example.com")
    let cases: [(String?, String, String)] = [
      (nil, Self.challenge, PKCEChallenge.invalidPair),
      ("s256", "abcde", "code challenge has to be between 43 and 128 characters"),
      (
        "s256", String(repeating: "a", count: 42) + "!",
        "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes"
      ),
    ]
    for route in ["recover", "otp", "magiclink", "signup"] {
      for (method, challenge, message) in cases {
        let body: JSON = [
          "email": "c@example.com", "code_challenge": .string(challenge),
          "code_challenge_method": method.map { .string($0) } ?? .null,
          "password": route == "signup" ? "hunter22" : .null,
        ]
        let answer = await emu.send("POST", route, json: body)
        #expect(answer.status == 400, "\(route)")
        #expect(answer.json == ["code": "validation_failed", "message": .string(message)], "\(route)")
      }
    }
    let resend = Self.pkce("c@example.com", challenge: "abcde", type: "signup")
    #expect(await emu.send("POST", "resend", json: resend).json["code"] == "validation_failed")
    #expect(emu.outbox("c@example.com").isEmpty)
  }

  @Test("a magic link with a plain challenge; an exchange after five minutes from the link is flow_state_expired")
  func magicLinkExpiry() async throws {
    let emu = try TestEmulator()
    await emu.signUp("m@example.com")
    _ = await emu.send("POST", "otp", json: Self.pkce("m@example.com", method: "plain", challenge: Self.verifier))
    #expect(emu.outbox("m@example.com").last?.kind == "magiclink")
    emu.clock.advance(400)
    let code = try #require(Self.code(in: try await Self.follow(emu, "m@example.com")))
    emu.clock.advance(301)
    let late = await emu.send(
      "POST", "token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(Self.verifier)])
    #expect(late.status == 422)
    #expect(late.json == ["code": "flow_state_expired", "message": "invalid flow state, flow state has expired"])
  }

  @Test("a magic link exchanged in time signs in (amr magiclink); a typed code of a PKCE mail still verifies")
  func magicLinkAndTypedCode() async throws {
    let emu = try TestEmulator()
    await emu.signUp("t@example.com")
    _ = await emu.send("POST", "otp", json: Self.pkce("t@example.com", method: "plain", challenge: Self.verifier))
    let code = try #require(Self.code(in: try await Self.follow(emu, "t@example.com")))
    let session = await emu.send(
      "POST", "token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(Self.verifier)])
    #expect(session.status == 200)
    #expect(session.json.claims["amr"]?[0]?["method"] == "magiclink")
    emu.clock.advance(61)
    _ = await emu.send("POST", "otp", json: Self.pkce("t@example.com"))
    let otp = try #require(emu.outbox("t@example.com").last).code
    let typed = await emu.send(
      "POST", "verify", json: ["type": "email", "email": "t@example.com", "token": .string(otp)])
    #expect(typed.status == 200)
    #expect(typed.json.claims["amr"]?[0]?["method"] == "otp")
  }

  @Test("sign-up with confirmation: the confirmation link gives a code; an unknown code is flow_state_not_found")
  func signupConfirmation() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    let created = await emu.send("POST", "signup", json: Self.pkce("s@example.com", password: "hunter22"))
    #expect(created.status == 200)
    let code = try #require(Self.code(in: try await Self.follow(emu, "s@example.com")))
    let session = await emu.send(
      "POST", "token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(Self.verifier)])
    #expect(session.json["user"]?["email_confirmed_at"] != nil)
    let unknown = await emu.send(
      "POST", "token?grant_type=pkce", json: ["auth_code": "nope", "code_verifier": .string(Self.verifier)])
    #expect(unknown.status == 404)
    let empty = await emu.send("POST", "token?grant_type=pkce", json: ["auth_code": "x"])
    #expect(
      empty.json == [
        "code": "validation_failed",
        "message": "invalid request: both auth code and code verifier should be non-empty",
      ])
  }

  @Test("a used PKCE link redirects with the error in the query as well as the fragment")
  func usedLinkError() async throws {
    let emu = try TestEmulator()
    await emu.signUp("e@example.com")
    _ = await emu.send("POST", "recover?redirect_to=http%3A%2F%2Flocalhost%3A3000%2F", json: Self.pkce("e@example.com"))
    _ = try await Self.follow(emu, "e@example.com")
    let again = try await Self.follow(emu, "e@example.com")
    #expect(
      again
        == "http://localhost:3000/?error=access_denied&error_code=otp_expired"
        + "&error_description=Email+link+is+invalid+or+has+expired"
        + "#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=")
  }
}
