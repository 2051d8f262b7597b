import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

/// Identity Platform tenants: separate user stores under one project, the v2 management API, and
/// `tenantId` on client and admin calls.
@Suite("Firebase tenants")
struct FirebaseTenantTests {
  func v2(_ harness: FirebaseHarness, _ method: String, _ path: String, _ body: JSON? = nil) async -> FirebaseReply {
    await harness.send(
      method, "/identitytoolkit.googleapis.com/v2/projects/\(harness.project)/\(path)", body: body?.bytes ?? [],
      headers: [("Content-Type", "application/json"), ("Authorization", "Bearer owner")])
  }

  func createTenant(_ harness: FirebaseHarness, _ body: JSON = ["displayName": "Shop-EU", "allowPasswordSignup": true])
    async throws -> String
  {
    let created = await v2(harness, "POST", "tenants", body)
    #expect(created.status == 200)
    let name = try #require(created.json["name"]?.string)
    return String(try #require(name.split(separator: "/").last))
  }

  @Test("create, get, list, update and delete; unknown tenants are TENANT_NOT_FOUND; the API needs OAuth")
  func management() async throws {
    let harness = try FirebaseHarness()
    let tenant = try await createTenant(harness)
    let got = await v2(harness, "GET", "tenants/\(tenant)")
    #expect(
      got.json == [
        "name": .string("projects/demo-test/tenants/\(tenant)"), "displayName": "Shop-EU", "allowPasswordSignup": true,
        "mfaConfig": ["state": "DISABLED"],
      ])
    let other = try await createTenant(harness, ["displayName": "Shop-US"])
    let listed = await v2(harness, "GET", "tenants")
    #expect(
      Set(listed.json["tenants"]?.array?.compactMap { $0["displayName"]?.string } ?? []) == ["Shop-EU", "Shop-US"])
    let page = await v2(harness, "GET", "tenants?pageSize=1")
    #expect(page.json["tenants"]?.array?.count == 1 && page.json["nextPageToken"] != nil)
    let updated = await v2(
      harness, "PATCH", "tenants/\(other)?updateMask=enableEmailLinkSignin", ["enableEmailLinkSignin": true])
    #expect(updated.json["enableEmailLinkSignin"] == true && updated.json["displayName"] == "Shop-US")
    #expect(await v2(harness, "DELETE", "tenants/\(other)").status == 200)
    #expect(await v2(harness, "GET", "tenants/\(other)").error == "TENANT_NOT_FOUND")
    #expect(await v2(harness, "GET", "tenants/nope").error == "TENANT_NOT_FOUND")
    let keyOnly = await harness.send(
      "GET", "/identitytoolkit.googleapis.com/v2/projects/demo-test/tenants?key=fake-api-key")
    #expect(keyOnly.status == 401)
  }

  @Test("a tenant's accounts are its own: sign-up and sign-in with tenantId; a project-level lookup does not see them")
  func separateStores() async throws {
    let harness = try FirebaseHarness()
    let tenant = try await createTenant(harness)
    let signedUp = await harness.call(
      "signUp", ["email": "t@x.io", "password": "secret1", "tenantId": .string(tenant), "returnSecureToken": true])
    #expect(signedUp.status == 200)
    let claims = firebaseClaims(signedUp.string("idToken"))
    #expect(claims["firebase"]?["tenant"] == .string(tenant))
    #expect(await harness.signIn("t@x.io").error == "EMAIL_NOT_FOUND")
    let signedIn = await harness.call(
      "signInWithPassword", ["email": "t@x.io", "password": "secret1", "tenantId": .string(tenant)])
    #expect(signedIn.status == 200)
    // The same address in the project itself is another account.
    let project = await harness.signUp("t@x.io")
    #expect(project.string("localId") != signedUp.string("localId"))
    // Admin: the tenant's path sees its account (with tenantId), the project's does not.
    let tenantLookup = await harness.admin("tenants/\(tenant)/accounts:lookup", ["email": ["t@x.io"]])
    #expect(tenantLookup.json["users"]?[0]?["localId"] == signedUp.json["localId"])
    #expect(tenantLookup.json["users"]?[0]?["tenantId"] == .string(tenant))
    let projectLookup = await harness.admin("accounts:lookup", ["localId": [signedUp.json["localId"] ?? .null]])
    #expect(projectLookup.json["users"] == nil)
    let batch = await harness.admin("tenants/\(tenant)/accounts:batchGet?maxResults=10", method: "GET")
    #expect(batch.json["users"]?.array?.count == 1)
    // The ID token routes a call without tenantId; refresh tokens remember the tenant.
    let lookup = await harness.call("lookup", ["idToken": signedIn.json["idToken"] ?? .null])
    #expect(lookup.json["users"]?[0]?["email"] == "t@x.io")
    let refreshed = await harness.refresh(signedIn.string("refreshToken"))
    #expect(refreshed.status == 200)
    #expect(firebaseClaims(refreshed.string("id_token"))["firebase"]?["tenant"] == .string(tenant))
    // A token of one tenant named with another: TENANT_ID_MISMATCH.
    let mismatch = await harness.call("lookup", ["idToken": signedIn.json["idToken"] ?? .null, "tenantId": "other"])
    #expect(mismatch.error == "TENANT_ID_MISMATCH")
  }

  @Test("admin create, update and delete under projects/{p}/tenants/{t}/accounts")
  func adminPaths() async throws {
    let harness = try FirebaseHarness()
    let tenant = try await createTenant(harness)
    let created = await harness.admin("tenants/\(tenant)/accounts", ["email": "a@x.io", "password": "secret1"])
    #expect(created.status == 200)
    let localId = created.json["localId"] ?? .null
    #expect(
      await harness.admin("tenants/\(tenant)/accounts:update", ["localId": localId, "disableUser": true]).status == 200)
    let signIn = await harness.call(
      "signInWithPassword", ["email": "a@x.io", "password": "secret1", "tenantId": .string(tenant)])
    #expect(signIn.error == "USER_DISABLED")
    let wrongBody = await harness.admin(
      "tenants/\(tenant)/accounts:lookup", ["localId": [localId], "tenantId": "other"])
    #expect(wrongBody.error == "TENANT_ID_MISMATCH")
    #expect(await harness.admin("tenants/\(tenant)/accounts:delete", ["localId": localId]).status == 200)
    #expect(await harness.admin("tenants/\(tenant)/accounts:lookup", ["localId": [localId]]).json["users"] == nil)
  }

  @Test(
    "a tenant without password sign-up refuses it; an unknown tenant is created on use by default, TENANT_NOT_FOUND like production"
  )
  func settingsAndUnknown() async throws {
    let harness = try FirebaseHarness()
    let closed = try await createTenant(harness, ["displayName": "Closed"])
    #expect(
      await harness.call("signUp", ["email": "c@x.io", "password": "secret1", "tenantId": .string(closed)]).error
        == "OPERATION_NOT_ALLOWED")
    #expect(
      await harness.call("signInWithPassword", ["email": "c@x.io", "password": "secret1", "tenantId": .string(closed)])
        .error
        == "PASSWORD_LOGIN_DISABLED")
    #expect(
      await harness.call("signUp", ["email": "i@x.io", "password": "secret1", "tenantId": "implicit-1"]).status == 200)
    #expect(await v2(harness, "GET", "tenants/implicit-1").json["allowPasswordSignup"] == true)

    let production = try await FirebaseLikeProductionTests.harness()
    let unknown = await production.call("signUp", ["email": "u@x.io", "password": "secret1", "tenantId": "nope"])
    #expect(unknown.error == "TENANT_NOT_FOUND")
  }

  @Test("tenants, their accounts and settings survive a restart (--state)")
  func persisted() async throws {
    let store = FirebaseMemoryStore()
    let first = try FirebaseHarness(store: store)
    let tenant = try await createTenant(first)
    #expect(
      await first.call("signUp", ["email": "p@x.io", "password": "secret1", "tenantId": .string(tenant)]).status == 200)
    let second = try FirebaseHarness(store: store)
    #expect(await v2(second, "GET", "tenants/\(tenant)").json["displayName"] == "Shop-EU")
    let signIn = await second.call(
      "signInWithPassword", ["email": "p@x.io", "password": "secret1", "tenantId": .string(tenant)])
    #expect(signIn.status == 200)
    #expect(await second.signIn("p@x.io").error == "EMAIL_NOT_FOUND")
  }

  @Test("the emulator's own routes per tenant: oobCodes and accounts under /emulator/v1/projects/{p}/tenants/{t}")
  func emulatorRoutes() async throws {
    let harness = try FirebaseHarness()
    let tenant = try await createTenant(harness)
    _ = await harness.call("signUp", ["email": "o@x.io", "password": "secret1", "tenantId": .string(tenant)])
    _ = await harness.call(
      "sendOobCode", ["requestType": "PASSWORD_RESET", "email": "o@x.io", "tenantId": .string(tenant)])
    let codes = await harness.send("GET", "/emulator/v1/projects/demo-test/tenants/\(tenant)/oobCodes")
    #expect(codes.json["oobCodes"]?.array?.count == 1)
    #expect(await harness.oobCodes().isEmpty)
    #expect(await harness.send("DELETE", "/emulator/v1/projects/demo-test/tenants/\(tenant)/accounts").status == 200)
    let gone = await harness.call(
      "signInWithPassword", ["email": "o@x.io", "password": "secret1", "tenantId": .string(tenant)])
    #expect(gone.error == "EMAIL_NOT_FOUND")
  }
}
