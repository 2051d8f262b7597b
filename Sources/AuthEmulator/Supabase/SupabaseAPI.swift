import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit
import Synchronization

/// The GoTrue side, served under `/auth/v1`. Handlers are plain functions of the request; the
/// state lives in `SupabaseState` (memory, written through to the `DocumentStore`).
package final class SupabaseAPI: EmulatorAPI {
  static let prefix = "/auth/v1"

  let config: EmulatorConfig
  let clock: any EmulatorClock
  let outbox: Outbox
  let state: SupabaseState
  let verifiedTokens = VerifiedTokenCache()
  let mode: EmulatorMode
  /// `http://host:port` once the server is bound: links and `iss` for requests without `Host`.
  let boundOrigin = Mutex<String?>(nil)

  package init(
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

  /// Routing from `routes`: a known path asked with another method is 405 with no body, an
  /// unknown path under `/auth/v1` GoTrue's plain-text 404, a preflight under it 204 for any path.
  package func handle(_ request: ServerRequest) async -> ServerResponse? {
    let path = request.path
    let resolution = Self.routes.resolve(method: request.method, path: path)
    guard path == Self.prefix || path.hasPrefix(Self.prefix + "/") else {
      switch resolution {
      case .found(let route, let parameters): return serve(request, route, parameters)
      case .otherMethod: return ServerResponse(status: 405)
      case .notFound: return nil
      }
    }
    let origin = request.header("Origin")
    if request.method == "OPTIONS", let origin {
      return Self.withCORS(ServerResponse(status: 204), origin: origin, preflight: true)
    }
    let response: ServerResponse
    switch resolution {
    case .found(let route, let parameters): response = serve(request, route, parameters)
    case .otherMethod: response = ServerResponse(status: 405)
    case .notFound: response = .text(404, "404 page not found\n")
    }
    return origin.map { Self.withCORS(response, origin: $0, preflight: false) } ?? response
  }

  /// The route's checks (`protect`), then its handler; an oversized body is 413 before both.
  private func serve(_ request: ServerRequest, _ route: SupabaseRoute, _ parameters: [String: String])
    -> ServerResponse
  {
    if request.bodyTooLarge {
      return GoTrueError(
        status: 413, code: "request_entity_too_large", message: "Request body too large (max 1048576 bytes)"
      )
      .response(for: request)
    }
    do {
      try protect(request, route)
      let client = SBClient(userAgent: request.header("User-Agent") ?? "", ip: clientIP(request))
      return try SBClient.$current.withValue(client) { try route.handler(self, request, parameters) }
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
        (
          $0,
          JSON.bool(
            $0 == "email" || $0 == "phone" || ($0 == "anonymous_users" && config.anonymousSignIns)
              || social.contains($0))
        )
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
