import AuthCore
import Essentials
import HTTPServerKit
import JSONKit
import Providers

/// The admin providers `user import` and `user export` use, talking to this emulator in process:
/// each request is served by the same handler as the official admin clients' requests (faults
/// and latency left out, as for every console call), so the console's import and export are the
/// CLI's own code, byte for byte.
struct ConsoleTransport: HTTPTransport {
  let supabase: SupabaseAPI
  let firebase: FirebaseAPI
  /// `Host` of the console request: links the APIs make point where the browser is.
  let host: String?

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var uri = request.url.path(percentEncoded: true)
    if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
    var headers = request.headers.filter { !$0.name.equalsIgnoringASCIICase("Host") }
    if let host { headers.append(("Host", host)) }
    let call = ServerRequest(method: request.method, uri: uri, headers: headers, body: request.body ?? [])
    let response =
      uri.hasPrefix(SupabaseAPI.prefix + "/") ? await supabase.handle(call) : await firebase.handle(call)
    guard let response else { return HTTPResponse(status: 404, body: Array("404 page not found".utf8)) }
    return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
  }
}

extension ConsoleContext {
  /// The emulator's address as the console request names it (`127.0.0.1:PORT`).
  private var consoleHost: String { request.header("Host") ?? "\(supabase.config.host):0" }

  /// The admin provider of `side` (a Firebase tenant's users when `tenant` is set), as
  /// `authsh --emulator` makes it: the service_role key, or `Bearer owner`.
  func adminProvider(_ side: ConsoleSide, tenant: String?) -> any AdminProvider {
    let transport = ConsoleTransport(supabase: supabase, firebase: firebase, host: request.header("Host"))
    let host = consoleHost
    switch side {
    case .supabase:
      let key = Emulator.key(role: "service_role", secret: supabase.config.jwtSecret)
      let target = Target(provider: .supabase, profile: "console", url: "http://\(host)/auth/v1", key: key)
      return SupabaseAdminProvider(
        target: target, credential: .supabaseServiceRole(key), transport: transport, clock: SystemClock(),
        trace: nil)
    case .firebase:
      var target = Target(
        provider: .firebase, profile: "console", url: "http://\(host)/identitytoolkit.googleapis.com/v1",
        key: "console", projectId: projectId, firebaseEmulatorHost: host)
      target.tenantId = tenant
      return FirebaseAdminProvider(
        target: target, tokens: StaticAccessToken(token: "owner"), transport: transport, clock: SystemClock(),
        trace: nil, projectId: projectId)
    }
  }
}
