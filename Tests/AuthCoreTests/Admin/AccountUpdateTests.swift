import AuthCore
import JSONKit
import Testing

/// `AccountUpdate.isApplied(to:)`: a bulk `user update` sends nothing to an account that already
/// holds every value asked, on either backend's shape of an account.
@Suite struct AccountUpdateTests {
  static func supabase(metadata: JSONObject = JSONObject(), app: JSONObject? = nil) -> AdminUser {
    var user = AdminUser(id: "id-1", email: "ada@example.com", confirmed: true, name: metadata["full_name"]?.string)
    user.metadata = .object(metadata)
    user.appMetadata = app.map(JSON.object)
    user.claims = user.appMetadata
    return user
  }

  static func firebase(name: String? = nil, claims: JSONObject? = nil) -> AdminUser {
    var user = AdminUser(id: "uid-1", email: "ada@example.com", confirmed: true, name: name)
    user.claims = claims.map(JSON.object)
    return user
  }

  @Test func metadataAlreadyThereIsApplied() {
    let update = AccountUpdate(metadata: o(["plan": "pro"]))
    #expect(update.isApplied(to: Self.supabase(metadata: o(["plan": "pro", "other": 1]))))
    #expect(!update.isApplied(to: Self.supabase(metadata: o(["plan": "free"]))))
    #expect(!update.isApplied(to: Self.supabase()))
    // A key asked null is applied when it is absent.
    #expect(AccountUpdate(metadata: o(["plan": .null])).isApplied(to: Self.supabase()))
    #expect(!AccountUpdate(metadata: o(["plan": .null])).isApplied(to: Self.supabase(metadata: o(["plan": "pro"]))))
  }

  @Test func claimsAreComparedWhereEachBackendKeepsThem() {
    let update = AccountUpdate(claims: o(["role": "admin"]))
    #expect(update.isApplied(to: Self.firebase(claims: o(["role": "admin"]))))
    #expect(!update.isApplied(to: Self.firebase(claims: o(["role": "staff"]))))
    #expect(!update.isApplied(to: Self.firebase()))
    #expect(update.isApplied(to: Self.supabase(app: o(["role": "admin"]))))
    #expect(AccountUpdate(appMetadata: o(["tier": 2])).isApplied(to: Self.supabase(app: o(["tier": 2]))))
  }

  @Test func theNameAndThePhone() {
    #expect(AccountUpdate(name: "Ada").isApplied(to: Self.firebase(name: "Ada")))
    #expect(!AccountUpdate(name: "Ada").isApplied(to: Self.firebase(name: "Bob")))
    #expect(AccountUpdate(name: "").isApplied(to: Self.firebase()))
    #expect(AccountUpdate(name: "Ada").isApplied(to: Self.supabase(metadata: o(["full_name": "Ada"]))))
    // Shown as Ada through `name`, but `full_name` (what --name writes) is not set.
    var named = Self.supabase(metadata: o(["name": "Ada"]))
    named.name = "Ada"
    #expect(!AccountUpdate(name: "Ada").isApplied(to: named))
    var phone = AccountUpdate()
    phone.phone = "+15551234567"
    var user = Self.firebase()
    #expect(!phone.isApplied(to: user))
    user.phone = "+15551234567"
    #expect(phone.isApplied(to: user))
  }
}

/// A JSON object literal as a `JSONObject`.
private func o(_ json: JSON) -> JSONObject { json.object ?? JSONObject() }
