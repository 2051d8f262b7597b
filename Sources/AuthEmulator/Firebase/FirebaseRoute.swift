import Essentials
import HTTPServerKit

/// An Identity Toolkit operation (`operations.ts` `authOperations`).
enum FirebaseOperation: Equatable {
  case signUp, signInWithPassword, sendOobCode, resetPassword, update, lookup, delete, createAuthUri
  case batchGet, batchDelete, batchCreate, query, createSessionCookie, getProjects
  case getConfig, updateConfig
  /// v2 tenant management (`projects/{p}/tenants[/{t}]`).
  case listTenants, createTenant, getTenant, updateTenant, deleteTenant
  case signInWithEmailLink, signInWithIdp
  /// v2 second factors (`FirebaseAPI+Mfa.swift`).
  case mfaEnrollmentStart, mfaEnrollmentFinalize, mfaEnrollmentWithdraw, mfaSignInStart, mfaSignInFinalize
  /// Served by the official emulator but outside this one's scope (501).
  case unimplemented(String)

  /// v2 config and tenant management take OAuth only; everything else also takes an API key.
  var acceptsAPIKey: Bool {
    ![.getConfig, .updateConfig, .listTenants, .createTenant, .getTenant, .updateTenant, .deleteTenant].contains(self)
  }

  /// Operations on the project itself, never on one of its tenants.
  var projectLevel: Bool {
    [.getConfig, .updateConfig, .listTenants, .createTenant, .getProjects].contains(self)
  }
}

/// Which of the Firebase side's paths a request names.
enum FirebaseRoute: Equatable {
  case readiness
  /// `GET /emulator/action`: the e-mailed links.
  case action
  case identityToolkit(FirebaseOperation, project: String?, tenant: String? = nil)
  case secureToken
  case emulator(EmulatorEndpoint, project: String)
  case notFound

  enum EmulatorEndpoint: Equatable { case deleteAccounts, oobCodes, getConfig, patchConfig, verificationCodes }

  static let toolkitV1 = "/identitytoolkit.googleapis.com/v1/"
  static let toolkitV2 = "/identitytoolkit.googleapis.com/v2/"
  static let legacyV3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
  static let emulatorProjects = "/emulator/v1/projects/"

  /// nil for paths the Firebase side does not own (other sides may serve them).
  init?(_ request: ServerRequest) {
    let path = request.path
    let method = request.method == "HEAD" ? "GET" : request.method
    let preflight = method == "OPTIONS"
    if path == "/" {
      guard method == "GET" || preflight else { return nil }
      self = .readiness
    } else if path == "/emulator/action" {
      self = method == "GET" ? .action : .notFound
    } else if path == "/securetoken.googleapis.com/v1/token" {
      self = method == "POST" || preflight ? .secureToken : .notFound
    } else if path.hasPrefix(Self.toolkitV1) {
      self = Self.toolkitV1Route(String(path.dropFirst(Self.toolkitV1.count)), method: method, preflight: preflight)
    } else if path.hasPrefix(Self.toolkitV2) {
      self = Self.toolkitV2Route(String(path.dropFirst(Self.toolkitV2.count)), method: method, preflight: preflight)
    } else if path.hasPrefix(Self.legacyV3) {
      let name = String(path.dropFirst(Self.legacyV3.count))
      guard let target = Self.legacyNames[name] else {
        self =
          Self.legacyUnimplemented.contains(name) ? .identityToolkit(.unimplemented(name), project: nil) : .notFound
        return
      }
      let wanted = target == .getProjects ? "GET" : "POST"
      self = method == wanted || preflight ? .identityToolkit(target, project: nil) : .notFound
    } else if path.hasPrefix(Self.emulatorProjects) {
      self = Self.emulatorRoute(
        String(path.dropFirst(Self.emulatorProjects.count)), method: method, preflight: preflight)
    } else if path.hasPrefix("/identitytoolkit.googleapis.com/") || path.hasPrefix("/securetoken.googleapis.com/") {
      self = .notFound
    } else {
      return nil
    }
  }

  private static func decode(_ segment: Substring) -> String {
    String(segment).percentDecoded ?? String(segment)
  }

  private static func toolkitV1Route(_ rest: String, method: String, preflight: Bool) -> FirebaseRoute {
    func post(_ operation: FirebaseOperation, _ project: String?) -> FirebaseRoute {
      method == "POST" || preflight ? .identityToolkit(operation, project: project) : .notFound
    }
    if rest.hasPrefix("accounts:") {
      let name = String(rest.dropFirst("accounts:".count))
      if let operation = clientOperations[name] { return post(operation, nil) }
      return unimplementedClientOperations.contains(name) ? post(.unimplemented(name), nil) : .notFound
    }
    if rest == "projects" {
      return method == "GET" || preflight ? .identityToolkit(.getProjects, project: nil) : .notFound
    }
    guard rest.hasPrefix("projects/") else {
      return rest == "recaptchaParams" || rest.hasPrefix("accounts/") ? post(.unimplemented(rest), nil) : .notFound
    }
    let tail = rest.dropFirst("projects/".count)
    guard let end = tail.firstIndex(where: { $0 == "/" || $0 == ":" }) else { return .notFound }
    let project = decode(tail[..<end])
    var remainder = String(tail[end...])
    // `projects/{p}/tenants/{t}/accounts…`: the same calls on a tenant's user store.
    var tenant: String?
    if remainder.hasPrefix("/tenants/") {
      let afterTenants = remainder.dropFirst("/tenants/".count)
      guard let tenantEnd = afterTenants.firstIndex(where: { $0 == "/" || $0 == ":" }),
        tenantEnd > afterTenants.startIndex
      else {
        return .notFound
      }
      tenant = decode(afterTenants[..<tenantEnd])
      remainder = String(afterTenants[tenantEnd...])
    }
    func scoped(_ operation: FirebaseOperation, _ project: String?) -> FirebaseRoute {
      method == "POST" || preflight ? .identityToolkit(operation, project: project, tenant: tenant) : .notFound
    }
    switch remainder {
    case "/accounts": return scoped(.signUp, project)
    case "/accounts:lookup": return scoped(.lookup, project)
    case "/accounts:update": return scoped(.update, project)
    case "/accounts:delete": return scoped(.delete, project)
    case "/accounts:sendOobCode": return scoped(.sendOobCode, project)
    case "/accounts:batchDelete": return scoped(.batchDelete, project)
    case "/accounts:query", ":queryAccounts": return scoped(.query, project)
    case ":createSessionCookie": return scoped(.createSessionCookie, project)
    case "/accounts:batchCreate": return scoped(.batchCreate, project)
    case "/accounts:batchGet":
      return method == "GET" || preflight ? .identityToolkit(.batchGet, project: project, tenant: tenant) : .notFound
    default:
      return .notFound
    }
  }

  private static func toolkitV2Route(_ rest: String, method: String, preflight: Bool) -> FirebaseRoute {
    let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count >= 3, parts[0] == "projects", parts[2] == "tenants", !parts[1].isEmpty {
      let project = decode(parts[1])
      if parts.count == 3 {
        switch method {
        case "GET": return .identityToolkit(.listTenants, project: project)
        case "POST": return .identityToolkit(.createTenant, project: project)
        default: return preflight ? .identityToolkit(.listTenants, project: project) : .notFound
        }
      }
      guard parts.count == 4, !parts[3].isEmpty else { return .notFound }
      let tenant = decode(parts[3])
      switch method {
      case "GET": return .identityToolkit(.getTenant, project: project, tenant: tenant)
      case "PATCH": return .identityToolkit(.updateTenant, project: project, tenant: tenant)
      case "DELETE": return .identityToolkit(.deleteTenant, project: project, tenant: tenant)
      default: return preflight ? .identityToolkit(.getTenant, project: project, tenant: tenant) : .notFound
      }
    }
    if parts.count == 3, parts[0] == "projects", parts[2] == "config" {
      let project = decode(parts[1])
      switch method {
      case "GET": return .identityToolkit(.getConfig, project: project)
      case "PATCH": return .identityToolkit(.updateConfig, project: project)
      default: return preflight ? .identityToolkit(.getConfig, project: project) : .notFound
      }
    }
    if let operation = v2Operations[rest] {
      return method == "POST" || preflight ? .identityToolkit(operation, project: nil) : .notFound
    }
    let known = ["accounts/", "projects/", "passwordPolicy", "recaptchaConfig", "defaultSupportedIdps"]
    return known.contains(where: { rest.hasPrefix($0) })
      ? .identityToolkit(.unimplemented(rest), project: nil) : .notFound
  }

  private static func emulatorRoute(_ rest: String, method: String, preflight: Bool) -> FirebaseRoute {
    var parts = rest.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count >= 2, !parts[0].isEmpty else { return .notFound }
    var project = decode(parts[0])
    // `/emulator/v1/projects/{p}/tenants/{t}/…`: a tenant's store (its state key).
    if parts.count == 4, parts[1] == "tenants", !parts[2].isEmpty {
      project = FirebaseProject.stateKey(projectId: project, tenantId: decode(parts[2]))
      parts = [parts[0], parts[3]]
    }
    guard parts.count == 2 else { return .notFound }
    switch (parts[1], method) {
    case ("accounts", "DELETE"): return .emulator(.deleteAccounts, project: project)
    case ("oobCodes", "GET"): return .emulator(.oobCodes, project: project)
    case ("verificationCodes", "GET"): return .emulator(.verificationCodes, project: project)
    case ("config", "GET"): return .emulator(.getConfig, project: project)
    case ("config", "PATCH"): return .emulator(.patchConfig, project: project)
    default: return preflight ? .emulator(.getConfig, project: project) : .notFound
    }
  }

  private static let clientOperations: [String: FirebaseOperation] = [
    "signUp": .signUp, "signInWithPassword": .signInWithPassword, "sendOobCode": .sendOobCode,
    "resetPassword": .resetPassword, "update": .update, "lookup": .lookup, "delete": .delete,
    "createAuthUri": .createAuthUri, "signInWithEmailLink": .signInWithEmailLink, "signInWithIdp": .signInWithIdp,
  ]

  private static let v2Operations: [String: FirebaseOperation] = [
    "accounts/mfaEnrollment:start": .mfaEnrollmentStart, "accounts/mfaEnrollment:finalize": .mfaEnrollmentFinalize,
    "accounts/mfaEnrollment:withdraw": .mfaEnrollmentWithdraw, "accounts/mfaSignIn:start": .mfaSignInStart,
    "accounts/mfaSignIn:finalize": .mfaSignInFinalize,
  ]

  private static let unimplementedClientOperations: Set<String> = [
    "signInWithCustomToken", "signInWithPhoneNumber",
    "sendVerificationCode", "signInWithGameCenter", "issueSamlResponse", "verifyIosClient",
  ]

  private static let legacyNames: [String: FirebaseOperation] = [
    "createAuthUri": .createAuthUri, "deleteAccount": .delete, "getAccountInfo": .lookup,
    "emailLinkSignin": .signInWithEmailLink, "verifyAssertion": .signInWithIdp,
    "getOobConfirmationCode": .sendOobCode, "resetPassword": .resetPassword, "setAccountInfo": .update,
    "signupNewUser": .signUp, "verifyPassword": .signInWithPassword, "getProjectConfig": .getProjects,
  ]

  private static let legacyUnimplemented: Set<String> = [
    "getRecaptchaParam", "publicKeys", "sendVerificationCode", "setProjectConfig", "verifyCustomToken",
    "verifyPhoneNumber", "signOutUser", "downloadAccount", "uploadAccount",
  ]
}
