import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase accounts without a password: e-mail link, fake IdP, admin-made")
struct FirebaseFederatedTests {
  /// An unsigned JWT as a fake IdP would give it.
  static func idToken(_ claims: JSON) -> String { EmulatorJWT.unsigned(claims) }

  @Test(
    "e-mail link: EMAIL_SIGNIN mail, signInWithEmailLink makes the account; it lists password but has no passwordHash")
  func emailLink() async throws {
    let fb = try FirebaseHarness()
    let sent = await fb.call(
      "sendOobCode",
      [
        "requestType": "EMAIL_SIGNIN", "email": "Link@Example.com",
        "continueUrl": "http://localhost/done",
      ])
    #expect(sent.status == 200)
    let mail = try #require(fb.emulator.outbox.messages(to: "link@example.com").last)
    #expect(mail.kind == "EMAIL_SIGNIN")
    #expect(
      await fb.call("signInWithEmailLink", ["email": "other@example.com", "oobCode": .string(mail.code)]).error
        == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
    let signedIn = await fb.call("signInWithEmailLink", ["email": "link@example.com", "oobCode": .string(mail.code)])
    #expect(signedIn.status == 200, "\(signedIn.text)")
    #expect(signedIn["kind"] == "identitytoolkit#EmailLinkSigninResponse")
    #expect(signedIn["isNewUser"] == true)
    #expect(signedIn["idToken"] != nil)
    #expect(
      await fb.call("signInWithEmailLink", ["email": "link@example.com", "oobCode": .string(mail.code)]).error
        == "INVALID_OOB_CODE")
    let user = try #require(await fb.admin("accounts:lookup", ["email": ["link@example.com"]])["users"]?[0])
    #expect(user["passwordHash"] == nil)
    #expect(user["emailLinkSignin"] == true)
    #expect(user["emailVerified"] == true)
    #expect(user["providerUserInfo"]?[0]?["providerId"] == "password")
    #expect(await fb.signIn("link@example.com", "any-password").error == "INVALID_PASSWORD")
    let methods = await fb.call("createAuthUri", ["identifier": "link@example.com", "continueUri": "http://localhost"])
    #expect(methods["signinMethods"] == ["emailLink"])
    #expect(methods["allProviders"] == ["password"])
  }

  @Test(
    "signInWithIdp with an unsigned id_token in postBody makes a Google-only account; the same sub signs it in again")
  func idp() async throws {
    let fb = try FirebaseHarness()
    let token = Self.idToken([
      "sub": "1234567890", "email": "Gus@Example.com", "email_verified": true, "name": "Gus Google",
    ])
    let body: JSON = [
      "requestUri": "http://localhost", "postBody": .string("id_token=\(token)&providerId=google.com"),
      "returnSecureToken": true, "returnIdpCredential": true,
    ]
    let first = await fb.call("signInWithIdp", body)
    #expect(first.status == 200, "\(first.text)")
    #expect(first["kind"] == "identitytoolkit#VerifyAssertionResponse")
    #expect(first["providerId"] == "google.com")
    #expect(first["federatedId"] == "https://accounts.google.com/1234567890")
    #expect(first["email"] == "gus@example.com")
    #expect(first["isNewUser"] == true)
    #expect(first["oauthIdToken"]?.string == token)
    let claims = firebaseClaims(first.string("idToken"))
    #expect(claims["firebase"]?["sign_in_provider"] == "google.com")
    #expect(claims["firebase"]?["identities"]?["google.com"] == ["1234567890"])
    let second = await fb.call("signInWithIdp", body)
    #expect(second["localId"] == first["localId"])
    #expect(second["isNewUser"] == nil)
    let user = try #require(await fb.admin("accounts:lookup", ["email": ["gus@example.com"]])["users"]?[0])
    #expect(user["passwordHash"] == nil)
    #expect(user["providerUserInfo"]?.array?.compactMap { $0["providerId"]?.string } == ["google.com"])
    #expect(user["providerUserInfo"]?[0]?["rawId"] == "1234567890")
    #expect(await fb.signIn("gus@example.com", "any-password").error == "INVALID_PASSWORD")
    let byProvider = await fb.admin(
      "accounts:lookup", ["federatedUserId": [["providerId": "google.com", "rawId": "1234567890"]]])
    #expect(byProvider["users"]?[0]?["localId"] == first["localId"])
    let methods = await fb.call("createAuthUri", ["identifier": "gus@example.com", "continueUri": "http://localhost"])
    #expect(methods["signinMethods"] == ["google.com"])
    // Unlinking the provider (firebase-admin `providers_to_delete`).
    #expect(
      await fb.admin("accounts:update", ["localId": first["localId"] ?? .null, "deleteProvider": ["google.com"]]).status
        == 200)
    let unlinked = await fb.admin("accounts:lookup", ["email": ["gus@example.com"]])["users"]?[0]
    #expect(unlinked?["providerUserInfo"] == [])
  }

  @Test(
    "signInWithIdp: JSON claims in requestUri work; no sub, an unparsable token or no providerId are the official errors"
  )
  func idpErrors() async throws {
    let fb = try FirebaseHarness()
    let json = await fb.call(
      "signInWithIdp", ["requestUri": "http://localhost?providerId=apple.com&id_token=%7B%22sub%22%3A%22a1%22%7D"])
    #expect(json.status == 200, "\(json.text)")
    #expect(json["providerId"] == "apple.com")
    let noSub = await fb.call(
      "signInWithIdp",
      [
        "requestUri": "http://localhost",
        "postBody": .string("id_token=\(Self.idToken(["email": "x@example.com"]))&providerId=google.com"),
      ])
    #expect(
      noSub.error?.hasPrefix("INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields.") == true)
    #expect(
      await fb.call(
        "signInWithIdp", ["requestUri": "http://localhost", "postBody": "id_token=abc&providerId=google.com"]
      ).error
        == "INVALID_IDP_RESPONSE : Unable to parse id_token: abc ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))"
    )
    #expect(
      await fb.call("signInWithIdp", ["requestUri": "http://localhost", "postBody": "id_token=abc"]).error?
        .hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true)
    #expect(await fb.call("signInWithIdp", ["postBody": "id_token=abc"]).error == "MISSING_REQUEST_URI")
  }

  @Test("a Google sign-in with the address of an unverified password account takes it over: the password goes")
  func takeover() async throws {
    let fb = try FirebaseHarness()
    await fb.signUp("ada@example.com")
    let token = Self.idToken(["sub": "42", "email": "ada@example.com", "email_verified": true])
    let reply = await fb.call(
      "signInWithIdp",
      ["requestUri": "http://localhost", "postBody": .string("id_token=\(token)&providerId=google.com")])
    #expect(reply.status == 200)
    let user = try #require(await fb.admin("accounts:lookup", ["email": ["ada@example.com"]])["users"]?[0])
    #expect(user["passwordHash"] == nil)
    #expect(user["emailVerified"] == true)
    #expect(user["providerUserInfo"]?.array?.compactMap { $0["providerId"]?.string } == ["google.com"])
  }

  @Test("an account made by the admin API without a password has no passwordHash and no password provider")
  func adminWithoutPassword() async throws {
    let fb = try FirebaseHarness()
    let made = await fb.admin("accounts", ["email": "made@example.com"])
    #expect(made.status == 200)
    let user = try #require(await fb.admin("accounts:lookup", ["email": ["made@example.com"]])["users"]?[0])
    #expect(user["passwordHash"] == nil)
    #expect(user["providerUserInfo"] == [])
  }
}
