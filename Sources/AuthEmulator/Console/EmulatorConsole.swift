import Essentials
import HTTPServerKit
import JSONKit

/// The web console at `/_/`: pages over the same state the APIs serve, so a change made here is
/// what the official clients read next. GETs never change anything; every change is a POST that
/// `ConsoleGuard` checks first.
struct EmulatorConsole: Sendable {
  let supabase: SupabaseAPI
  let firebase: FirebaseAPI
  let outbox: Outbox
  let faults: FaultInjector
  let mode: EmulatorMode
  let clock: any EmulatorClock
  let latencyMs: Int
  /// The request being served (its `Host` makes the links of mails and recovery links).
  let request: ServerRequest
  let form: [(name: String, value: String)]

  /// The per-process secret every POST form carries.
  static let token: String = {
    var generator = PooledRandom()
    return (0..<4).map { _ in
      let hex = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }()

  static func owns(_ path: String) -> Bool { path == "/_" || path.hasPrefix("/_/") }

  /// Entry point from `EmulatorRouter.route` (before faults and latency: the console is never slowed
  /// down or broken by them).
  static func serve(_ request: ServerRequest, router: EmulatorRouter) async -> ServerResponse {
    guard let supabase = router.apis.lazy.compactMap({ $0 as? SupabaseAPI }).first,
      let firebase = router.apis.lazy.compactMap({ $0 as? FirebaseAPI }).first
    else { return .text(404, "404 page not found") }
    if let refused = ConsoleGuard.refusal(request, bindHost: supabase.config.host, token: token) { return refused }
    let form =
      request.method == "POST"
      ? ConsoleMultipart.fields(request) ?? FormCoding.decode(String(decoding: request.body, as: UTF8.self)) : []
    let console = EmulatorConsole(
      supabase: supabase, firebase: firebase, outbox: router.outbox, faults: router.faults, mode: router.mode,
      clock: router.clock, latencyMs: router.latencyMs, request: request, form: form)
    return await console.route()
  }

  private func route() async -> ServerResponse {
    let path = request.path
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).dropFirst().map {
      FormCoding.percentDecode(String($0))
    }
    let get = request.method == "GET" || request.method == "HEAD"
    let post = request.method == "POST"
    switch (parts.first, parts.count) {
    case (nil, _) where path == "/_": return Self.redirect("/_/")
    case (nil, _) where get: return await accountsPage()
    case ("console.css", 1) where get: return Self.asset(ConsoleAssets.css, type: "text/css; charset=utf-8")
    case ("console.js", 1) where get: return Self.asset(ConsoleAssets.js, type: "text/javascript; charset=utf-8")
    case ("inbox", 1) where get: return inboxPage()
    case ("inbox.json", 1) where get: return inboxJSON()
    case ("faults", 1) where get: return faultsPage()
    case ("faults", 2) where post: return faultsAction(parts[1])
    case ("create", 1) where get: return createPage(message: nil)
    case ("create", 1) where post: return await createAccount()
    case ("bulk", 1) where get: return await bulkConfirmationPage()
    case ("bulk", 1) where post: return await bulkAction()
    case ("export", 1) where get: return await exportDownload()
    case ("import", 1) where get: return importPage()
    case ("import", 1) where post: return await importAction()
    case ("delete-all", 1) where get: return await deleteAllPage()
    case ("delete-all", 1) where post: return await deleteAll()
    case ("accounts", 3) where get:
      guard let side = ConsoleSide(rawValue: parts[1]) else { break }
      return await accountPage(side: side, id: parts[2])
    case ("accounts", 4) where get && parts[3] == "delete":
      guard let side = ConsoleSide(rawValue: parts[1]) else { break }
      return await deleteConfirmationPage(side: side, id: parts[2])
    case ("accounts", 4) where post:
      guard let side = ConsoleSide(rawValue: parts[1]) else { break }
      return await accountAction(side: side, id: parts[2], action: parts[3])
    case (_, _) where !get && !post:
      return ServerResponse(status: 405, headers: [("Allow", "GET, POST")])
    default:
      break
    }
    return Self.html(404, ConsoleHTML.page(title: "Not found", section: .accounts, body: "<p>No such page.</p>"))
  }

  /// A form field of the POST body.
  func field(_ name: String) -> String? { form.first { $0.name == name }?.value }

  /// A query parameter, or a form field of a POST.
  func parameter(_ name: String) -> String? { request.query(name) ?? field(name) }

  /// The tenant a Firebase page or action is about (nil: the project itself).
  var tenant: String? { parameter("tenant").flatMap { $0.isEmpty ? nil : $0 } }

  var now: Date { clock.now() }

  // MARK: - Responses

  /// The headers of every console answer: the page may load only its own files, cannot be framed,
  /// and is never cached.
  static let securityHeaders: [(name: String, value: String)] = [
    (
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"), ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cache-Control", "no-store"),
  ]

  static func html(_ status: Int, _ markup: String) -> ServerResponse {
    ServerResponse(
      status: status, headers: [("Content-Type", "text/html; charset=utf-8")] + securityHeaders,
      body: Array(markup.utf8))
  }

  static func asset(_ text: String, type: String) -> ServerResponse {
    ServerResponse(status: 200, headers: [("Content-Type", type)] + securityHeaders, body: Array(text.utf8))
  }

  static func json(_ value: JSON) -> ServerResponse {
    ServerResponse(status: 200, headers: [("Content-Type", "application/json")] + securityHeaders, body: value.bytes)
  }

  /// 303 See Other: after a POST, the browser GETs the page that shows the result.
  static func redirect(_ location: String) -> ServerResponse {
    ServerResponse(status: 303, headers: [("Location", location)] + securityHeaders)
  }

  /// A page saying what went wrong, with a way back.
  static func problem(_ status: Int, _ message: String, back: String) -> ServerResponse {
    let body =
      "<p class=\"warning\" role=\"alert\">\(ConsoleHTML.text(message))</p><p>\(ConsoleHTML.link(back, "Back"))</p>"
    return html(status, ConsoleHTML.page(title: "Not done", section: .accounts, body: body))
  }
}

/// Which backend an account page or action is about.
enum ConsoleSide: String, Sendable, CaseIterable {
  case supabase, firebase

  var label: String { self == .supabase ? "Supabase" : "Firebase" }
}
