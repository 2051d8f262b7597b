import JSONKit

/// A tenant of an Identity Platform project (the v2 `Tenant` resource): its own user store and
/// sign-in settings.
struct FirebaseTenant: Equatable, Sendable {
  var tenantId: String
  var displayName: String?
  var allowPasswordSignup = false
  var enableEmailLinkSignin = false
  var enableAnonymousUser = false
  var disableAuth = false

  /// What the official emulator gives a tenant it creates on first use (everything on).
  static func implicit(_ tenantId: String) -> FirebaseTenant {
    FirebaseTenant(
      tenantId: tenantId, allowPasswordSignup: true, enableEmailLinkSignin: true, enableAnonymousUser: true)
  }

  /// The resource as the v2 API answers it; like Google's APIs, false booleans are left out.
  func resourceJSON(projectId: String) -> JSON {
    var object = JSONObject()
    object["name"] = .string("projects/\(projectId)/tenants/\(tenantId)")
    if let displayName { object["displayName"] = .string(displayName) }
    if allowPasswordSignup { object["allowPasswordSignup"] = true }
    if enableEmailLinkSignin { object["enableEmailLinkSignin"] = true }
    if enableAnonymousUser { object["enableAnonymousUser"] = true }
    if disableAuth { object["disableAuth"] = true }
    object["mfaConfig"] = ["state": "DISABLED"]
    return .object(object)
  }

  /// The fields of a create or update body: the whole resource without a mask (absent fields are
  /// false), else only the masked ones. An unknown masked field is `INVALID_ARGUMENT`.
  mutating func apply(_ body: JSONObject, mask: [String]) throws {
    let fields = ["displayName", "allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser", "disableAuth"]
    for field in fields.dropFirst() {
      if let value = body[field], value.bool == nil {
        throw FirebaseError.invalidArgument("\(field) should be boolean")
      }
    }
    if let value = body["displayName"], value.string == nil {
      throw FirebaseError.invalidArgument("displayName should be string")
    }
    let paths = mask.isEmpty ? fields : mask
    for path in paths {
      switch path {
      case "displayName": displayName = body["displayName"]?.string
      case "allowPasswordSignup": allowPasswordSignup = body[path]?.bool ?? false
      case "enableEmailLinkSignin": enableEmailLinkSignin = body[path]?.bool ?? false
      case "enableAnonymousUser": enableAnonymousUser = body[path]?.bool ?? false
      case "disableAuth": disableAuth = body[path]?.bool ?? false
      case "mfaConfig", "name", "tenantId": continue
      default: throw FirebaseError.invalidArgument("Invalid update mask path: \(path)")
      }
    }
  }

  func storageJSON(projectId: String) -> JSON {
    [
      "projectId": .string(projectId), "tenantId": .string(tenantId), "displayName": .optional(displayName),
      "allowPasswordSignup": .bool(allowPasswordSignup), "enableEmailLinkSignin": .bool(enableEmailLinkSignin),
      "enableAnonymousUser": .bool(enableAnonymousUser), "disableAuth": .bool(disableAuth),
    ]
  }

  static func fromStorage(_ json: JSON) -> (projectId: String, tenant: FirebaseTenant)? {
    guard let projectId = json["projectId"]?.string, let tenantId = json["tenantId"]?.string, !tenantId.isEmpty else {
      return nil
    }
    var tenant = FirebaseTenant(tenantId: tenantId)
    tenant.displayName = json["displayName"]?.string
    tenant.allowPasswordSignup = json["allowPasswordSignup"]?.bool ?? false
    tenant.enableEmailLinkSignin = json["enableEmailLinkSignin"]?.bool ?? false
    tenant.enableAnonymousUser = json["enableAnonymousUser"]?.bool ?? false
    tenant.disableAuth = json["disableAuth"]?.bool ?? false
    return (projectId, tenant)
  }
}

/// The v2 project config's `signIn.email`.
struct FirebaseEmailSignIn: Equatable, Sendable {
  /// E-mail/password sign-in is on (a new project has it on in the emulator).
  var enabled = true
  /// A password is required; false lets e-mail links sign in too (passwords still work).
  var passwordRequired = true

  /// As Google answers it: false booleans left out (`{}` when both are off).
  var json: JSON {
    var object = JSONObject()
    if enabled { object["enabled"] = true }
    if passwordRequired { object["passwordRequired"] = true }
    return .object(object)
  }
}
