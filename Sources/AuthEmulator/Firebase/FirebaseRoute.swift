import Essentials
import HTTPServerKit

/// An Identity Toolkit operation (`operations.ts` `authOperations`).
enum FirebaseOperation: Equatable, Sendable {
  case signUp, signInWithPassword, sendOobCode, resetPassword, update, lookup, delete, createAuthUri
  case batchGet, batchDelete, batchCreate, query, createSessionCookie, getProjects
  case getConfig, updateConfig
  /// v2 tenant management (`projects/{p}/tenants[/{t}]`).
  case listTenants, createTenant, getTenant, updateTenant, deleteTenant
  case signInWithEmailLink, signInWithIdp
  /// A custom token an app server minted (`FirebaseCustomTokenRoutes.swift`).
  case signInWithCustomToken
  /// Phone sign-in (`FirebasePhoneRoutes.swift`).
  case sendVerificationCode, signInWithPhoneNumber
  /// v2 second factors (`FirebaseMfaRoutes.swift`).
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

/// Which of the Firebase side's paths a request names, resolved from `FirebaseAPI.routes`.
enum FirebaseRoute: Equatable {
  case readiness
  /// `GET /emulator/action`: the e-mailed links.
  case action
  /// `/emulator/auth/handler`: a social provider's page.
  case handler
  case identityToolkit(FirebaseOperation, project: String?, tenant: String? = nil)
  case secureToken
  case emulator(EmulatorEndpoint, project: String)
  case notFound

  enum EmulatorEndpoint: Equatable, Sendable {
    case deleteAccounts, oobCodes, getConfig, patchConfig, verificationCodes
  }

  /// Paths under these belong to this side: an unknown one is the Identity Toolkit's 404.
  static let ownedPrefixes = [
    "/identitytoolkit.googleapis.com/", "/securetoken.googleapis.com/",
    "/www.googleapis.com/identitytoolkit/v3/relyingparty/", "/emulator/v1/projects/",
  ]

  /// nil for paths the Firebase side does not own (other sides may serve them). A preflight on an
  /// owned path is `.notFound` too (every owned path answers one).
  init?(_ request: ServerRequest) {
    let path = request.path
    let method = request.method == "HEAD" ? "GET" : request.method
    if path == "/" && method != "GET" && method != "OPTIONS" { return nil }
    let owned =
      path == "/" || path == "/emulator/action" || path == FirebaseOAuthRoutes.handlerPath
      || Self.ownedPrefixes.contains { path.hasPrefix($0) }
    guard owned else { return nil }
    guard case .found(let entry, let parameters) = FirebaseAPI.routes.resolve(method: method, path: path) else {
      self = .notFound
      return
    }
    let decoded = parameters.mapValues { $0.percentDecoded ?? $0 }
    switch entry.target {
    case .readiness: self = .readiness
    case .action: self = .action
    case .handler: self = .handler
    case .secureToken: self = .secureToken
    case .toolkit(.unimplemented(let name)):
      // A wildcard route names what was asked (`accounts/foo`), the others their own name.
      let asked = path.split(separator: "/").dropFirst(2).joined(separator: "/")
      self = .identityToolkit(.unimplemented(entry.pattern.description.hasSuffix("*") ? asked : name), project: nil)
    case .toolkit(let operation):
      self = .identityToolkit(operation, project: decoded["projectId"], tenant: decoded["tenantId"])
    case .emulator(let endpoint):
      let project = decoded["projectId"] ?? ""
      self = .emulator(
        endpoint,
        project: decoded["tenantId"].map { FirebaseProject.stateKey(projectId: project, tenantId: $0) } ?? project)
    }
  }
}
