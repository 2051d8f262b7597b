import AuthTestSupport
import Essentials
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("/admin")
struct AdminTests {
  @Test("admin auth: 401 without bearer, 403 not_admin for anon, 403 bad_jwt for forged; apikey ignored")
  func adminAuth() async throws {
    let emu = try TestEmulator()
    #expect(await emu.send("GET", "admin/users").errorCode == "no_authorization")
    let anon = await emu.send("GET", "admin/users", bearer: emu.anonKey)
    #expect(anon.status == 403)
    #expect(anon.json == ["code": "not_admin", "message": "User not allowed"])
    let forged = Emulator.key(role: "service_role", secret: "wrong-secret")
    #expect(await emu.send("GET", "admin/users", bearer: forged).errorCode == "bad_jwt")
    let admin = EmulatorJWT.signHS256(["sub": "1234567890", "role": "supabase_admin"], secret: TestEmulator.secret)
    let ok = await emu.send("GET", "admin/users", bearer: admin, headers: [("apikey", "garbage")])
    #expect(ok.status == 200)
  }

  @Test("list: newest first, page/per_page, X-Total-Count, Link with page first")
  func listPagination() async throws {
    let emu = try TestEmulator()
    for index in 1...5 {
      await emu.signUp("user\(index)@example.com")
      emu.clock.advance(1)
    }
    let page = await emu.send("GET", "admin/users?page=2&per_page=2", bearer: emu.serviceRoleKey)
    #expect(page.status == 200)
    #expect(page.header("X-Total-Count") == "5")
    #expect(
      page.header("Link")
        == #"</auth/v1/admin/users?page=3&per_page=2>; rel="next", </auth/v1/admin/users?page=3&per_page=2>; rel="last""#
    )
    let emails = page.json["users"]?.array?.compactMap { $0["email"]?.string }
    #expect(emails == ["user3@example.com", "user2@example.com"])
    #expect(page.json["aud"] == "authenticated")
    #expect(page.json["users"]?[0]?["identities"] == .null)
    let all = await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey)
    #expect(all.header("Link") == #"</auth/v1/admin/users?page=1>; rel="last""#)
    #expect(await emu.send("GET", "admin/users?page=x", bearer: emu.serviceRoleKey).errorCode == "validation_failed")
  }

  @Test("create (no policy), get, update (policy, ends sessions), delete")
  func crud() async throws {
    let emu = try TestEmulator()
    let created = await emu.send(
      "POST", "admin/users",
      json: ["email": "Admin.Made@example.com", "password": "abc", "user_metadata": ["n": 1], "email_confirm": true],
      bearer: emu.serviceRoleKey)
    #expect(created.status == 200)
    let id = try #require(created.json["id"]?.string)
    #expect(created.json["email"] == "admin.made@example.com")
    #expect(created.json["email_confirmed_at"] != nil)
    let duplicate = await emu.send(
      "POST", "admin/users", json: ["email": "admin.made@example.com"], bearer: emu.serviceRoleKey)
    #expect(
      duplicate.json == [
        "code": "email_exists", "message": "A user with this email address has already been registered",
      ])
    let fetched = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey)
    #expect(fetched.json["id"]?.string == id)
    #expect(fetched.json["identities"]?.array?.count == 1)
    let session = await emu.signIn("admin.made@example.com", "abc").json
    let weak = await emu.send("PUT", "admin/users/\(id)", json: ["password": "abc"], bearer: emu.serviceRoleKey)
    #expect(weak.errorCode == "weak_password")
    let updated = await emu.send(
      "PUT", "admin/users/\(id)", json: ["password": "long-enough", "user_metadata": ["m": 2]],
      bearer: emu.serviceRoleKey)
    #expect(updated.json["user_metadata"] == ["email_verified": true, "m": 2, "n": 1])
    #expect(await emu.send("GET", "user", bearer: session.accessToken).errorCode == "session_not_found")
    #expect(await emu.signIn("admin.made@example.com", "long-enough").status == 200)
    let badID = await emu.send("GET", "admin/users/not-a-uuid", bearer: emu.serviceRoleKey)
    #expect(badID.status == 404)
    #expect(badID.json == ["code": "validation_failed", "message": "user_id must be an UUID"])
    let deleted = await emu.send(
      "DELETE", "admin/users/\(id)", json: ["should_soft_delete": false], bearer: emu.serviceRoleKey)
    #expect(deleted.status == 200)
    #expect(deleted.text == "{}")
    let missing = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey)
    #expect(missing.json == ["code": "user_not_found", "message": "User not found"])
  }

  @Test("generate_link recovery: flattened user + link fields; completes through /verify; no mail")
  func generateLink() async throws {
    let emu = try TestEmulator()
    await emu.signUp("gl@example.com")
    let link = await emu.send(
      "POST", "admin/generate_link?redirect_to=http%3A%2F%2Flocalhost%3A3000",
      json: ["type": "recovery", "email": "gl@example.com", "password": nil, "new_email": nil, "data": nil],
      bearer: emu.serviceRoleKey)
    #expect(link.status == 200)
    let body = link.json
    let otp = try #require(body["email_otp"]?.string)
    let hash = try #require(body["hashed_token"]?.string)
    #expect(hash == EmulatorJWT.sha224Hex("gl@example.com" + otp))
    #expect(body["verification_type"] == "recovery")
    #expect(body["redirect_to"] == "http://localhost:3000")
    #expect(
      body["action_link"]?.string
        == "http://emulator.test/auth/v1/verify?token=\(hash)&type=recovery&redirect_to=http://localhost:3000")
    #expect(body["email"] == "gl@example.com")
    #expect(emu.outbox("gl@example.com").isEmpty)
    #expect(await emu.send("POST", "verify", json: ["type": "recovery", "token_hash": .string(hash)]).status == 200)

    let unknown = await emu.send(
      "POST", "admin/generate_link", json: ["type": "recovery", "email": "no@example.com"], bearer: emu.serviceRoleKey)
    #expect(unknown.json == ["code": "user_not_found", "message": "User with this email not found"])
    let magic = await emu.send(
      "POST", "admin/generate_link", json: ["type": "magiclink", "email": "new@example.com"], bearer: emu.serviceRoleKey
    )
    #expect(magic.json["verification_type"] == "signup")
    let signup = await emu.send(
      "POST", "admin/generate_link", json: ["type": "signup", "email": "gl@example.com", "password": "hunter22"],
      bearer: emu.serviceRoleKey)
    #expect(signup.errorCode == "email_exists")
  }

  @Test("create with a bcrypt password_hash (GoTrue-made hashes sign in); other hashes refused")
  func importHash() async throws {
    let emu = try TestEmulator()
    let hash = PasswordHasher.hash("imported-pw", cost: 4)
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "imp@example.com", "password_hash": .string(hash), "email_confirm": true],
      bearer: emu.serviceRoleKey)
    #expect(created.status == 200)
    #expect(await emu.signIn("imp@example.com", "imported-pw").status == 200)
    // GoTrue answers a hash it cannot parse with a 500 "Error creating user".
    for bad in [
      "md5:abc", "$fbscrypt$v=2,n=14,r=8,p=1,ss=Bw==,sk=AAAA$AAAA$AAAA",
      "$argon2id$v=19$m=2000000,t=2,p=1$c2FsdA$aGFzaA",
    ] {
      let refused = await emu.send(
        "POST", "admin/users", json: ["email": "bad@example.com", "password_hash": .string(bad)],
        bearer: emu.serviceRoleKey)
      #expect(
        refused.status == 500 && refused.errorCode == "unexpected_failure"
          && (refused.json["msg"] ?? refused.json["message"])?.string == "Error creating user")
    }
  }

  @Test(
    "a Firebase scrypt password_hash signs in (not rehashed); argon2 is checked as GoTrue checks it"
  )
  func importFirebaseScryptAndArgon2() async throws {
    let emu = try TestEmulator()
    let created = await emu.send(
      "POST", "admin/users",
      json: [
        "email": "fb@example.com", "password_hash": .string(FirebaseScryptTests.goTrueExample), "email_confirm": true,
      ],
      bearer: emu.serviceRoleKey)
    #expect(created.status == 200)
    #expect(await emu.signIn("fb@example.com", "mytestpassword1").errorCode == "invalid_credentials")
    #expect(await emu.signIn("fb@example.com", "mytestpassword").status == 200)
    #expect(await emu.signIn("fb@example.com", "mytestpassword").status == 200)
    let argon = await emu.send(
      "POST", "admin/users",
      json: [
        "email": "ar@example.com", "password_hash": "$argon2id$v=19$m=16,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo",
        "email_confirm": true,
      ],
      bearer: emu.serviceRoleKey)
    #expect(argon.status == 200)
    let refused = await emu.signIn("ar@example.com", "whatever")
    #expect(refused.errorCode == "invalid_credentials")
    // A cost scrypt refuses (n=40: N is 2^40) parses and is stored; at sign-in GoTrue's
    // must(scrypt.Key(…)) panics and its recoverer answers 500, not invalid_credentials.
    let costly = FirebaseScryptTests.goTrueExample.replacingAll("n=14", with: "n=40")
    let stored = await emu.send(
      "POST", "admin/users",
      json: ["email": "cost@example.com", "password_hash": .string(costly), "email_confirm": true],
      bearer: emu.serviceRoleKey)
    #expect(stored.status == 200)
    let failed = await emu.signIn("cost@example.com", "mytestpassword")
    #expect(failed.status == 500 && failed.errorCode == "unexpected_failure")
  }
}
