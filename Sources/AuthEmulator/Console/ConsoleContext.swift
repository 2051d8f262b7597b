import Essentials
import HTTPServerKit
import JSONKit

/// What every console page group shares for one request: the request and its form, the two APIs
/// the pages read and change accounts through, the clock and the mode; and the answers every page
/// gives (its headers, HTML, redirects, problems). Built per request by `EmulatorConsole.serve`.
struct ConsoleContext: Sendable {
  let supabase: SupabaseAPI
  let firebase: FirebaseAPI
  let mode: EmulatorMode
  let clock: any EmulatorClock
  /// The request being served (its `Host` makes the links of mails and recovery links).
  let request: ServerRequest
  let form: [(name: String, value: String)]

  /// A form field of the POST body.
  func field(_ name: String) -> String? { form.first { $0.name == name }?.value }

  /// A query parameter, or a form field of a POST.
  func parameter(_ name: String) -> String? { request.query(name) ?? field(name) }

  /// The tenant a Firebase page or action is about (nil: the project itself).
  var tenant: String? { parameter("tenant").flatMap { $0.isEmpty ? nil : $0 } }

  var now: Date { clock.now() }

  var projectId: String { firebase.state.defaultProjectId }

  /// An action that was not done: the status and the backend's (or the console's) message.
  struct ActionFailure: Error {
    var status: Int
    var message: String
  }

  /// A failed edit: the form it came from (`profile`, or the JSON field's name) and the message.
  struct EditFailure: Error {
    var form: String
    var message: String
    var status: Int
  }

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

/// The console's changes and account reads go through the admin APIs themselves (a request built
/// here, served by the same handler as the official admin clients' requests, faults left out),
/// so every rule and every write the APIs make applies.
extension ConsoleContext {
  struct APIAnswer {
    var status: Int
    var json: JSON?
    var ok: Bool { (200..<300).contains(status) }
    /// The backend's own error message, for the page.
    var message: String {
      if let text = json?["msg"]?.string ?? json?["message"]?.string ?? json?["error"]?["message"]?.string {
        return text
      }
      return "HTTP \(status)"
    }
  }

  /// `Host` of the console request: links the APIs make point where the browser is.
  private var forwardedHeaders: [(name: String, value: String)] {
    request.header("Host").map { [("Host", $0)] } ?? []
  }

  /// A GoTrue admin call (`/auth/v1` + `path`) with the service_role key.
  func supabaseAdmin(_ method: String, _ path: String, body: JSON? = nil) async -> APIAnswer {
    let key = Emulator.key(role: "service_role", secret: supabase.config.jwtSecret)
    let call = ServerRequest(
      method: method, uri: SupabaseAPI.prefix + path,
      headers: [("Authorization", "Bearer " + key), ("apikey", key), ("Content-Type", "application/json")]
        + forwardedHeaders,
      body: body?.bytes ?? [])
    return Self.answer(await supabase.handle(call))
  }

  /// An Identity Toolkit call as the Admin SDK makes it (`Bearer owner`), on the project or a tenant:
  /// `accounts:update`, `accounts:lookup`, ….
  func firebaseAdmin(_ operation: String, tenant: String?, body: JSON, version: String = "v1") async -> APIAnswer {
    var path = "/identitytoolkit.googleapis.com/\(version)/projects/\(ConsoleHTML.component(projectId))"
    if let tenant { path += "/tenants/\(ConsoleHTML.component(tenant))" }
    let call = ServerRequest(
      method: "POST", uri: path + "/" + operation,
      headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")] + forwardedHeaders,
      body: body.bytes)
    return Self.answer(await firebase.handle(call))
  }

  /// The project's tenants, as `GET …/v2/projects/P/tenants` lists them.
  func firebaseTenants() async -> [String] {
    let call = ServerRequest(
      method: "GET",
      uri: "/identitytoolkit.googleapis.com/v2/projects/\(ConsoleHTML.component(projectId))/tenants?pageSize=1000",
      headers: [("Authorization", "Bearer owner")])
    let answer = Self.answer(await firebase.handle(call))
    return (answer.json?["tenants"]?.array ?? []).compactMap { tenant in
      tenant["name"]?.string.flatMap { $0.split(separator: "/").last.map(String.init) }
    }.sorted()
  }

  /// One account as the admin API shows it (Supabase `GET /admin/users/ID`, Firebase
  /// `accounts:lookup`), nil when there is none.
  func accountJSON(side: ConsoleSide, id: String) async -> JSON? {
    switch side {
    case .supabase:
      let answer = await supabaseAdmin("GET", "/admin/users/" + ConsoleHTML.component(id))
      return answer.ok ? answer.json : nil
    case .firebase:
      let answer = await firebaseAdmin("accounts:lookup", tenant: tenant, body: ["localId": [.string(id)]])
      return answer.json?["users"]?[0]
    }
  }

  /// `PUT /admin/users/ID` (Supabase) or `accounts:update` (Firebase).
  func change(
    _ side: ConsoleSide, _ id: String, supabase body: JSON, firebase update: JSON, _ done: ConsoleNotice
  ) async -> Result<ConsoleNotice, ActionFailure> {
    let answer: APIAnswer
    if side == .supabase {
      answer = await supabaseAdmin("PUT", "/admin/users/" + ConsoleHTML.component(id), body: body)
    } else {
      var update = update.object ?? JSONObject()
      update["localId"] = .string(id)
      answer = await firebaseAdmin("accounts:update", tenant: tenant, body: .object(update))
    }
    return answer.ok ? .success(done) : .failure(ActionFailure(status: answer.status, message: answer.message))
  }

  private static func answer(_ response: ServerResponse?) -> APIAnswer {
    guard let response else { return APIAnswer(status: 404, json: nil) }
    return APIAnswer(status: response.status, json: try? JSON.parse(bytes: response.body))
  }
}

extension ServerResponse {
  func withStatus(_ status: Int) -> ServerResponse {
    var copy = self
    copy.status = status
    return copy
  }
}
