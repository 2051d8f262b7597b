import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: edits through the admin APIs")
struct ConsoleEditTests {
  static let hostile = "<img src=x onerror=alert(1)>"

  static func post(_ emulator: Emulator, _ uri: String, _ fields: [(String, String)]) async -> (
    status: Int, text: String
  ) {
    let form = FormCoding.encode([("token", EmulatorConsole.token)] + fields)
    let request = ConsoleSafetyTests.request("POST", uri, form: form, headers: [("Origin", "http://127.0.0.1:9099")])
    let response = await emulator.handle(request)
    return (response.status, String(decoding: response.body, as: UTF8.self))
  }

  @Test("Supabase: e-mail, phone and name saved are what the admin API reads; a taken e-mail keeps the form")
  func supabaseProfile() async throws {
    let emu = try TestEmulator()
    let id = try #require(
      await emu.send("POST", "admin/users", json: ["email": "p@x.io"], bearer: emu.serviceRoleKey).json["id"]?.string)
    _ = await emu.send("POST", "admin/users", json: ["email": "taken@x.io"], bearer: emu.serviceRoleKey)
    let page = "/_/accounts/supabase/\(id)/profile"
    let saved = await Self.post(
      emu.emulator, page, [("email", "q@x.io"), ("phone", "+1 555 010 0200"), ("name", "Kay")])
    #expect(saved.status == 303)
    let user = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json
    #expect(user["email"]?.string == "q@x.io" && user["phone"]?.string == "15550100200")
    #expect(user["user_metadata"]?["full_name"]?.string == "Kay")
    let shown = await ConsoleHonestTests.get(emu.emulator, "/_/accounts/supabase/\(id)?done=profile-saved")
    #expect(shown.contains("E-mail, phone and name saved.") && shown.contains("value=\"15550100200\""))
    #expect(shown.contains(ConsoleAccountEdit.emptyFieldsHint(.supabase)))
    let taken = await Self.post(emu.emulator, page, [("email", "taken@x.io"), ("phone", ""), ("name", Self.hostile)])
    #expect(taken.status == 422)
    #expect(taken.text.contains("role=\"alert\"") && taken.text.contains("value=\"taken@x.io\""))
    #expect(taken.text.contains("value=\"&lt;img src=x onerror=alert(1)&gt;\"") && !taken.text.contains(Self.hostile))
    let after = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json
    #expect(after["email"]?.string == "q@x.io" && after["user_metadata"]?["full_name"]?.string == "Kay")
  }

  @Test("Supabase: metadata saved is exactly the object typed; what is not JSON comes back as typed")
  func supabaseMetadata() async throws {
    let emu = try TestEmulator()
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "m@x.io", "user_metadata": ["old": 1]], bearer: emu.serviceRoleKey)
    let id = try #require(created.json["id"]?.string)
    let json = "/_/accounts/supabase/\(id)/json"
    let saved = await Self.post(emu.emulator, json, [("field", "user_metadata"), ("json", "{\"plan\": \"pro\"}")])
    #expect(saved.status == 303 && saved.text.isEmpty)
    let app = await Self.post(
      emu.emulator, json, [("field", "app_metadata"), ("json", "{\"provider\":\"email\",\"role\":\"admin\"}")])
    #expect(app.status == 303)
    let user = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json
    #expect(user["user_metadata"] == ["plan": "pro"])
    #expect(user["app_metadata"]?["role"]?.string == "admin" && user["app_metadata"]?["providers"] == nil)
    let broken = "{\"a\": " + Self.hostile
    let bad = await Self.post(emu.emulator, json, [("field", "user_metadata"), ("json", broken)])
    #expect(bad.status == 400 && bad.text.contains("This is not JSON"))
    #expect(bad.text.contains("{&quot;a&quot;: &lt;img src=x onerror=alert(1)&gt;</textarea>"))
    #expect(!bad.text.contains(Self.hostile))
    let array = await Self.post(emu.emulator, json, [("field", "app_metadata"), ("json", "[1]")])
    #expect(array.status == 400 && array.text.contains("Type a JSON object"))
    let other = await Self.post(emu.emulator, json, [("field", "role"), ("json", "{}")])
    #expect(other.status == 400 && other.text.contains("No such field."))
    let forged = ConsoleSafetyTests.request(
      "POST", json, form: "field=user_metadata&json=%7B%7D", headers: [("Origin", "http://127.0.0.1:9099")])
    #expect(await emu.emulator.handle(forged).status == 403)
    #expect(
      await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json["user_metadata"] == ["plan": "pro"])
  }

  @Test("Firebase: claims are checked as accounts:update checks them (size, reserved names) and read back")
  func firebaseClaims() async throws {
    let fb = try FirebaseHarness()
    let uid = await fb.admin("accounts", ["email": "c@x.io", "password": "secret1"]).string("localId")
    let json = "/_/accounts/firebase/\(uid)/json"
    let page = await ConsoleHonestTests.get(fb.emulator, "/_/accounts/firebase/\(uid)")
    #expect(page.contains("At most 1000 characters") && page.contains("auth_time, firebase"))
    let saved = await Self.post(
      fb.emulator, json, [("field", "customAttributes"), ("json", "{\"admin\": true, \"tier\": 2}")])
    #expect(saved.status == 303)
    let user = await fb.admin("accounts:lookup", ["localId": [.string(uid)]]).json["users"]?[0]
    #expect(try JSON.parse(user?["customAttributes"]?.string ?? "") == ["admin": true, "tier": 2])
    let reserved = await Self.post(fb.emulator, json, [("field", "customAttributes"), ("json", "{\"sub\": \"x\"}")])
    #expect(reserved.status == 400 && reserved.text.contains("FORBIDDEN_CLAIM : sub"))
    #expect(reserved.text.contains("{&quot;sub&quot;: &quot;x&quot;}</textarea>"))
    let big = "{\"a\": \"" + String(repeating: "x", count: 1000) + "\"}"
    let large = await Self.post(fb.emulator, json, [("field", "customAttributes"), ("json", big)])
    #expect(large.status == 400 && large.text.contains("CLAIMS_TOO_LARGE"))
    let kept = await fb.admin("accounts:lookup", ["localId": [.string(uid)]]).json["users"]?[0]
    #expect(try JSON.parse(kept?["customAttributes"]?.string ?? "") == ["admin": true, "tier": 2])
  }

  @Test("Firebase: claims of a tenant's account are saved in that tenant; the form carries the tenant")
  func tenantClaims() async throws {
    let fb = try FirebaseHarness()
    let tenant = try await FirebaseTenantTests().createTenant(fb)
    let uid = await fb.admin("tenants/\(tenant)/accounts", ["email": "t@x.io", "password": "secret1"]).string("localId")
    let page = await ConsoleHonestTests.get(fb.emulator, "/_/accounts/firebase/\(uid)?tenant=\(tenant)")
    #expect(page.contains("<input type=\"hidden\" name=\"tenant\" value=\"\(tenant)\">"))
    let saved = await Self.post(
      fb.emulator, "/_/accounts/firebase/\(uid)/json",
      [("tenant", tenant), ("field", "customAttributes"), ("json", "{\"shop\": \"eu\"}")])
    #expect(saved.status == 303)
    let user = await fb.admin("tenants/\(tenant)/accounts:lookup", ["localId": [.string(uid)]]).json["users"]?[0]
    #expect(try JSON.parse(user?["customAttributes"]?.string ?? "") == ["shop": "eu"])
  }

  @Test("Firebase: a phone and name set, then removed by emptying them")
  func firebaseProfile() async throws {
    let fb = try FirebaseHarness()
    let uid = await fb.admin("accounts", ["email": "f@x.io", "password": "secret1"]).string("localId")
    let page = "/_/accounts/firebase/\(uid)/profile"
    let set = await Self.post(fb.emulator, page, [("email", "f@x.io"), ("phone", "+15550100300"), ("name", "Eff")])
    #expect(set.status == 303)
    var user = await fb.admin("accounts:lookup", ["localId": [.string(uid)]]).json["users"]?[0]
    #expect(user?["phoneNumber"]?.string == "+15550100300" && user?["displayName"]?.string == "Eff")
    let bad = await Self.post(fb.emulator, page, [("email", "f@x.io"), ("phone", "555"), ("name", "Eff")])
    #expect(bad.status == 400 && bad.text.contains("INVALID_PHONE_NUMBER") && bad.text.contains("value=\"555\""))
    #expect(await Self.post(fb.emulator, page, [("email", "f@x.io"), ("phone", ""), ("name", "")]).status == 303)
    user = await fb.admin("accounts:lookup", ["localId": [.string(uid)]]).json["users"]?[0]
    #expect(user?["phoneNumber"] == nil && user?["displayName"] == nil && user?["email"]?.string == "f@x.io")
  }

  @Test("create with a phone and claims on both sides; claims Firebase refuses create nothing")
  func createWithPhoneAndClaims() async throws {
    let emu = try TestEmulator()
    let created = await Self.post(
      emu.emulator, "/_/create",
      [("side", "supabase"), ("phone", "+15550100400"), ("password", "secret-123"), ("claims", "{\"role\":\"x\"}")])
    #expect(created.status == 201 || created.status == 303)
    let user = await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey).json["users"]?[0]
    #expect(user?["phone"]?.string == "15550100400" && user?["app_metadata"]?["role"]?.string == "x")
    let fb = try FirebaseHarness()
    let refused = await Self.post(
      fb.emulator, "/_/create", [("side", "firebase"), ("phone", "+15550100500"), ("claims", "{\"iss\": 1}")])
    #expect(refused.status == 400 && refused.text.contains("FORBIDDEN_CLAIM : iss"))
    #expect(refused.text.contains("value=\"+15550100500\"") && refused.text.contains("{&quot;iss&quot;: 1}</textarea>"))
    #expect(await fb.admin("accounts:query", [:]).json["recordsCount"]?.string ?? "0" == "0")
    let made = await Self.post(
      fb.emulator, "/_/create", [("side", "firebase"), ("phone", "+15550100500"), ("claims", "{\"admin\": true}")])
    #expect(made.status == 201 || made.status == 303)
    let queried = await fb.admin("accounts:query", ["returnUserInfo": true]).json["userInfo"]?[0]
    #expect(queried?["phoneNumber"]?.string == "+15550100500")
    #expect(try JSON.parse(queried?["customAttributes"]?.string ?? "") == ["admin": true])
  }

  @Test("create with a provider identity: the account is shaped as the backend leaves it, with phone and claims")
  func createWithProvider() async throws {
    let emu = try TestEmulator()
    let created = await Self.post(
      emu.emulator, "/_/create",
      [
        ("side", "supabase"), ("email", "g@x.io"), ("provider", "google"), ("phone", "+15550101100"),
        ("claims", "{\"role\":\"g\"}"), ("confirmed", "yes"),
      ])
    #expect(created.status == 303)
    let id = try #require(
      await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey).json["users"]?[0]?["id"]?.string)
    let user: JSON? = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json
    #expect(user?["identities"]?.array?.compactMap { $0["provider"]?.string }.contains("google") == true)
    #expect(user?["app_metadata"]?["role"]?.string == "g" && user?["phone"]?.string == "15550101100")
    let again = await Self.post(
      emu.emulator, "/_/create", [("side", "supabase"), ("email", "g@x.io"), ("provider", "github")])
    #expect(again.status == 422 && again.text.contains("<option value=\"github\" selected>"))
    let unknown = await Self.post(
      emu.emulator, "/_/create", [("side", "supabase"), ("email", "u@x.io"), ("provider", "myspace")])
    #expect(unknown.status == 400 && unknown.text.contains("Choose one of the providers."))

    let fb = try FirebaseHarness()
    let made = await Self.post(
      fb.emulator, "/_/create",
      [("side", "firebase"), ("email", "gh@x.io"), ("password", "secret1"), ("provider", "github")])
    #expect(made.status == 303)
    let info = await fb.admin("accounts:query", ["returnUserInfo": true]).json["userInfo"]?[0]
    let providers = Set(info?["providerUserInfo"]?.array?.compactMap { $0["providerId"]?.string } ?? [])
    #expect(providers == ["github.com", "password"])
  }
}
