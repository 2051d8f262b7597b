import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit
import Synchronization

/// The GoTrue side, served under `/auth/v1`. Handlers are plain functions of the request; the
/// state lives in `SupabaseState` (memory, written through to the `DocumentStore`).
public final class SupabaseAPI: EmulatorAPI {
  static let prefix = "/auth/v1"

  let config: EmulatorConfig
  let clock: any EmulatorClock
  let outbox: Outbox
  let state: SupabaseState
  let verifiedTokens = VerifiedTokenCache()
  let mode: EmulatorMode
  /// `http://host:port` once the server is bound: links and `iss` for requests without `Host`.
  let boundOrigin = Mutex<String?>(nil)

  public init(
    config: EmulatorConfig, clock: any EmulatorClock, outbox: Outbox, store: any DocumentStore,
    mode: EmulatorMode? = nil
  ) throws {
    self.config = config
    self.mode = mode ?? EmulatorMode(config: config)
    self.clock = clock
    self.outbox = outbox
    self.state = try SupabaseState(store: store)
    let now = clock.now().micros
    _ = try? state.transaction { pruneExpiredSessions(in: &$0, now: now) }
  }

  public func handle(_ request: ServerRequest) async -> ServerResponse? {
    let fullPath = request.path
    if fullPath == Self.fakeIdPPath {
      return request.method == "POST" ? serve(request, with: SupabaseAPI.fakeIdPSignIn) : ServerResponse(status: 405)
    }
    guard fullPath == Self.prefix || fullPath.hasPrefix(Self.prefix + "/") else { return nil }
    let path = String(fullPath.dropFirst(Self.prefix.count))
    let origin = request.header("Origin")
    if request.method == "OPTIONS", let origin {
      return Self.withCORS(ServerResponse(status: 204), origin: origin, preflight: true)
    }
    let response: ServerResponse
    if let route = Self.route(method: request.method, path: path) {
      if let refused = protect(request, method: request.method, path: path) {
        response = refused
      } else if let handler = route {
        response = serve(request, with: handler)
      } else {
        response = ServerResponse(status: 405)
      }
    } else {
      response = .text(404, "404 page not found\n")
    }
    return origin.map { Self.withCORS(response, origin: $0, preflight: false) } ?? response
  }

  private func serve(_ request: ServerRequest, with handler: Handler) -> ServerResponse {
    if request.bodyTooLarge {
      return GoTrueError(
        status: 413, code: "request_entity_too_large", message: "Request body too large (max 1048576 bytes)"
      )
      .response(for: request)
    }
    do {
      return try handler(self)(request)
    } catch let error as GoTrueError {
      return error.response(for: request)
    } catch {
      return GoTrueError.internal("Unexpected error: \(error)").response(for: request)
    }
  }

  /// GoTrue's CORS middleware (`api.go`): any origin, credentials allowed, the pagination and
  /// version headers exposed.
  static func withCORS(_ response: ServerResponse, origin: String, preflight: Bool) -> ServerResponse {
    var response = response
    response.headers += [
      ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"),
      ("Vary", "Origin"),
    ]
    if preflight {
      response.headers += [
        ("Access-Control-Allow-Methods", "GET, POST, PATCH, PUT, DELETE"),
        (
          "Access-Control-Allow-Headers",
          "Accept, Authorization, Content-Type, X-Client-IP, X-Client-Info, X-JWT-AUD, "
            + "X-Supabase-Api-Version, apikey"
        ),
        ("Access-Control-Max-Age", "86400"),
      ]
    } else {
      response.headers.append(("Access-Control-Expose-Headers", "X-Total-Count, Link, X-Supabase-Api-Version"))
    }
    return response
  }

  typealias Handler = (SupabaseAPI) -> (ServerRequest) throws -> ServerResponse

  /// nil: unknown path (404); `.some(nil)`: known path, other method (405).
  static func route(method: String, path: String) -> Handler?? {
    switch (path, method) {
    case ("/health", "GET"): return .some(SupabaseAPI.health)
    case ("/settings", "GET"): return .some(SupabaseAPI.settings)
    case ("/.well-known/jwks.json", "GET"): return .some(SupabaseAPI.jwks)
    case ("/signup", "POST"): return .some(SupabaseAPI.signup)
    case ("/token", "POST"): return .some(SupabaseAPI.token)
    case ("/recover", "POST"): return .some(SupabaseAPI.recover)
    case ("/resend", "POST"): return .some(SupabaseAPI.resend)
    case ("/verify", "POST"): return .some(SupabaseAPI.verifyPost)
    case ("/verify", "GET"): return .some(SupabaseAPI.verifyGet)
    case ("/user", "GET"): return .some(SupabaseAPI.getUser)
    case ("/user", "PUT"): return .some(SupabaseAPI.updateUser)
    case ("/logout", "POST"): return .some(SupabaseAPI.logout)
    case ("/admin/users", "GET"): return .some(SupabaseAPI.adminListUsers)
    case ("/admin/users", "POST"): return .some(SupabaseAPI.adminCreateUser)
    case ("/admin/generate_link", "POST"): return .some(SupabaseAPI.adminGenerateLink)
    case ("/health", _), ("/settings", _), ("/.well-known/jwks.json", _), ("/signup", _), ("/token", _),
      ("/recover", _), ("/resend", _),
      ("/verify", _), ("/user", _), ("/logout", _), ("/admin/users", _), ("/admin/generate_link", _):
      return .some(nil)
    default:
      break
    }
    let adminUserPrefix = "/admin/users/"
    if path.hasPrefix(adminUserPrefix), !path.dropFirst(adminUserPrefix.count).contains("/"),
      path.count > adminUserPrefix.count
    {
      switch method {
      case "GET": return .some(SupabaseAPI.adminGetUser)
      case "PUT": return .some(SupabaseAPI.adminUpdateUser)
      case "DELETE": return .some(SupabaseAPI.adminDeleteUser)
      default: return .some(nil)
      }
    }
    return accountRoute(method: method, path: path)
  }

  // MARK: - Small endpoints

  func health(_ request: ServerRequest) throws -> ServerResponse {
    json([
      "version": "v2.196.0", "name": "GoTrue", "description": "GoTrue is a user registration and authentication API",
    ])
  }

  func settings(_ request: ServerRequest) throws -> ServerResponse {
    let providers = [
      "anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "snapchat", "figma", "fly", "github",
      "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc", "notion", "spotify", "slack",
      "slack_oidc", "workos", "twitch", "twitter", "email", "phone", "zoom",
    ]
    // Social providers count as enabled once an account has one (seeded, or the emulator's IdP sign-in).
    let social = state.read { $0.socialProviders }
    let external = JSONObject(
      providers.map {
        ($0, JSON.bool($0 == "email" || ($0 == "anonymous_users" && config.anonymousSignIns) || social.contains($0)))
      })
    return json([
      "external": .object(external), "disable_signup": false, "mailer_autoconfirm": .bool(!confirmEmail),
      "phone_autoconfirm": false, "sms_provider": "", "saml_enabled": false,
      "saml_private_key_next_configured": false, "passkeys_enabled": false,
    ])
  }

  /// HS256 keys are never published, so an HS256-only server lists none.
  func jwks(_ request: ServerRequest) throws -> ServerResponse {
    json(["keys": []], headers: [("Cache-Control", "public, max-age=600")])
  }

  // MARK: - Helpers shared by the handlers

  var now: Micros { clock.now().micros }

  func json(_ value: JSON, status: Int = 200, headers: [(name: String, value: String)] = []) -> ServerResponse {
    ServerResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: value.bytes)
  }

  func json(bytes: [UInt8], status: Int = 200) -> ServerResponse {
    ServerResponse(status: status, headers: [("Content-Type", "application/json")], body: bytes)
  }

  /// `http://<Host>` of the request (mail links point back at the address the client used).
  func origin(of request: ServerRequest) -> String {
    if let host = request.header("Host"), !host.isEmpty { return "http://" + host }
    return boundOrigin.withLock { $0 } ?? "http://\(config.host):\(config.port)"
  }

  /// The JWT `iss`: this emulator's `/auth/v1` URL.
  func issuer(for request: ServerRequest) -> String { origin(of: request) + Self.prefix }

  /// `redirect_to` from the query (or a body field) when GoTrue's `IsRedirectURLValid` accepts it
  /// (the site URL, a loopback address or the allow-list), else the site URL. In every mode: any
  /// other address would be an open redirect.
  func redirectTarget(_ request: ServerRequest, body: String? = nil) -> String {
    for candidate in [request.query("redirect_to"), request.header("redirect_to"), body] {
      if let candidate, RedirectPolicy.isValid(candidate, siteURL: config.siteURL, allowList: config.redirectAllowList)
      {
        return candidate
      }
    }
    return config.siteURL
  }

  /// GoTrue `MAILER_AUTOCONFIRM=false`: `--confirm-email`, or like production.
  var confirmEmail: Bool { config.confirmEmail || mode.likeProduction }

  /// `--refresh-reuse-interval`, else the hosted projects' 10 s like production, else GoTrue's 0.
  var refreshReuseInterval: Int {
    config.refreshReuseInterval ?? (mode.likeProduction ? ProductionLimits.Supabase.refreshReuseInterval : 0)
  }
}
