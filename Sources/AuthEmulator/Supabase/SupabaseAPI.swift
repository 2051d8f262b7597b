import Essentials
import HTTPServerKit
import JSONKit

/// The GoTrue side, served under `/auth/v1`: the front that routes a request (`routes`), answers
/// CORS, 404, 405 and 413, runs the route's checks (`protect`) and hands it to the route's group.
/// Each group (`SupabaseAdminRoutes`, `SupabaseTokenRoutes`, …) holds its handlers; what they share
/// is the `GoTrueContext`. The state lives in `SupabaseState` (memory, written through to the
/// `DocumentStore`).
package final class SupabaseAPI: EmulatorAPI {
  static let prefix = "/auth/v1"

  let context: GoTrueContext
  let info: SupabaseInfoRoutes
  let signup: SupabaseSignupRoutes
  let token: SupabaseTokenRoutes
  let mail: SupabaseMailRoutes
  let otp: SupabaseOTPRoutes
  let verify: SupabaseVerifyRoutes
  let user: SupabaseUserRoutes
  let factors: SupabaseFactorRoutes
  let admin: SupabaseAdminRoutes
  let adminFactors: SupabaseAdminFactorRoutes
  let adminLinks: SupabaseAdminLinkRoutes
  let oauth: SupabaseOAuthRoutes

  package init(
    config: EmulatorConfig, clock: any EmulatorClock, outbox: Outbox, store: any DocumentStore,
    mode: EmulatorMode? = nil
  ) throws {
    let context = GoTrueContext(
      config: config, clock: clock, outbox: outbox, state: try SupabaseState(store: store),
      mode: mode ?? EmulatorMode(config: config))
    self.context = context
    info = SupabaseInfoRoutes(context: context)
    signup = SupabaseSignupRoutes(context: context)
    token = SupabaseTokenRoutes(context: context)
    mail = SupabaseMailRoutes(context: context)
    otp = SupabaseOTPRoutes(context: context)
    verify = SupabaseVerifyRoutes(context: context)
    user = SupabaseUserRoutes(context: context)
    factors = SupabaseFactorRoutes(context: context)
    admin = SupabaseAdminRoutes(context: context)
    adminFactors = SupabaseAdminFactorRoutes(context: context)
    adminLinks = SupabaseAdminLinkRoutes(context: context)
    oauth = SupabaseOAuthRoutes(context: context)
    let now = clock.now().micros
    _ = try? context.state.transaction { context.pruneExpiredSessions(in: &$0, now: now) }
  }

  var config: EmulatorConfig { context.config }
  var state: SupabaseState { context.state }
  var now: Micros { context.now }
  /// GoTrue `MAILER_AUTOCONFIRM=false`: `--confirm-email`, or like production.
  var confirmEmail: Bool { context.confirmEmail }

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
      let client = SBClient(userAgent: request.header("User-Agent") ?? "", ip: context.clientIP(request))
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
}
