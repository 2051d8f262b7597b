import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit
import Synchronization

/// What every GoTrue route group shares: the configuration, the clock, the outbox, the state, the
/// mode and the helpers more than one group uses (answers, addresses, redirects, sessions, mails,
/// bearer tokens). One per emulator, owned by `SupabaseAPI` and handed to each group.
final class GoTrueContext: Sendable {
  let config: EmulatorConfig
  let clock: any EmulatorClock
  let outbox: Outbox
  let state: SupabaseState
  let verifiedTokens = VerifiedTokenCache()
  let mode: EmulatorMode
  /// `http://host:port` once the server is bound: links and `iss` for requests without `Host`.
  let boundOrigin = Mutex<String?>(nil)

  init(config: EmulatorConfig, clock: any EmulatorClock, outbox: Outbox, state: SupabaseState, mode: EmulatorMode) {
    self.config = config
    self.clock = clock
    self.outbox = outbox
    self.state = state
    self.mode = mode
  }

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
  func issuer(for request: ServerRequest) -> String { origin(of: request) + SupabaseAPI.prefix }

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

  /// GoTrue's `utilities.GetIPAddress`: the first `X-Forwarded-For` address, else this machine.
  func clientIP(_ request: ServerRequest) -> String {
    let forwarded =
      request.header("X-Forwarded-For")?.split(separator: ",").first
      .map { $0.trimmingSpaces } ?? ""
    return forwarded.isEmpty ? "127.0.0.1" : forwarded
  }
}
