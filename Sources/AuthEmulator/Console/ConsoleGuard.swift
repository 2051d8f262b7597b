import Essentials
import HTTPServerKit
import JSONKit

/// What keeps another web page, or another machine, from using the console: it is served only when
/// the emulator listens on a loopback address and only to requests naming a loopback host (a DNS
/// rebinding page names its own); a POST must carry the per-process token and, when the browser
/// says where it comes from, come from the console's own origin.
enum ConsoleGuard {
  /// nil when the request may be served, else the answer that refuses it.
  static func refusal(_ request: ServerRequest, bindHost: String, token: String) -> ServerResponse? {
    guard isLoopback(bindHost) else {
      return forbidden("The console is served only when the emulator listens on a loopback address (--host 127.0.0.1).")
    }
    if let host = request.header("Host"), !isLoopback(hostWithoutPort(host)) {
      return forbidden("The console answers only requests for a loopback host.")
    }
    guard request.method == "POST" else { return nil }
    if !sameOrigin(request) {
      return forbidden("Refused: this request comes from another site.")
    }
    if request.bodyTooLarge {
      var response = ServerResponse.text(413, ConsoleTransferPages.uploadTooLarge + "\n")
      response.headers += ConsoleContext.securityHeaders
      return response
    }
    let form = ConsoleMultipart.fields(request) ?? FormCoding.decode(String(decoding: request.body, as: UTF8.self))
    guard let sent = form.first(where: { $0.name == "token" })?.value, ConstantTime.equal(sent, token) else {
      return forbidden("Refused: the form carries no valid console token. Reload the page and try again.")
    }
    return nil
  }

  /// True unless the browser says the request comes from elsewhere: an `Origin` other than
  /// `http://<Host>` (or `null`), or `Sec-Fetch-Site` other than same-origin or none.
  static func sameOrigin(_ request: ServerRequest) -> Bool {
    if let site = request.header("Sec-Fetch-Site")?.lowercased(), site != "same-origin", site != "none" {
      return false
    }
    guard let origin = request.header("Origin") else { return true }
    guard let host = request.header("Host") else { return false }
    return origin.lowercased() == "http://" + host.lowercased()
  }

  /// `127.0.0.0/8`, `::1` or `localhost`.
  static func isLoopback(_ host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
    let octets = name.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4, octets[0] == "127" else { return false }
    return octets.allSatisfy { octet in octet.count <= 3 && UInt8(octet) != nil }
  }

  /// `127.0.0.1:8080` → `127.0.0.1`, `[::1]:8080` → `[::1]`.
  static func hostWithoutPort(_ host: String) -> String {
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { return host }
      return String(host[...close])
    }
    guard let colon = host.lastIndex(of: ":") else { return host }
    return String(host[..<colon])
  }

  static func forbidden(_ message: String) -> ServerResponse {
    var response = ServerResponse.text(403, message + "\n")
    response.headers += ConsoleContext.securityHeaders
    return response
  }
}
