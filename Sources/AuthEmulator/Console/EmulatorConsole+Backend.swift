import Essentials
import HTTPServerKit
import JSONKit

/// The console's changes and account reads go through the admin APIs themselves (a request built
/// here, served by the same handler as the official admin clients' requests, faults left out),
/// so every rule and every write the APIs make applies.
extension EmulatorConsole {
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

  var projectId: String { firebase.state.defaultProjectId }

  private static func answer(_ response: ServerResponse?) -> APIAnswer {
    guard let response else { return APIAnswer(status: 404, json: nil) }
    return APIAnswer(status: response.status, json: try? JSON.parse(bytes: response.body))
  }
}
