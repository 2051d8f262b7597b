import EmulatorFaults
import Essentials
import HTTPServerKit
import JSONKit
import Synchronization

/// The live fault list. Thread-safe; each match counts down the fault's `times`.
package final class FaultInjector: Sendable {
  private let faults: Mutex<[EmulatorFault]>

  package init(_ faults: [EmulatorFault] = []) { self.faults = Mutex(faults) }

  package var all: [EmulatorFault] { faults.withLock { $0 } }

  package func replace(with newFaults: [EmulatorFault]) { faults.withLock { $0 = newFaults } }
  package func append(_ fault: EmulatorFault) { faults.withLock { $0.append(fault) } }
  package func clear() { faults.withLock { $0.removeAll() } }

  /// The first fault matching the request, counted as used (removed when its count runs out).
  package func take(method: String, path: String) -> EmulatorFault? {
    faults.withLock { faults in
      guard !faults.isEmpty, let index = faults.firstIndex(where: { $0.matches(method: method, path: path) })
      else { return nil }
      let fault = faults[index]
      if fault.times == 1 {
        faults.remove(at: index)
      } else if fault.times > 1 {
        faults[index].times -= 1
      }
      return fault
    }
  }
}

extension EmulatorFault {
  /// The answer this fault gives instead of the real one; nil when it only delays or adds headers.
  func response(for request: ServerRequest) -> ServerResponse? {
    guard replacesResponse else { return nil }
    var response = preset.map { $0.response(for: request) } ?? ServerResponse(status: 200)
    if response.drop { return response }
    if let status { response.status = status }
    if let json {
      response.body = json.bytes
      setHeader(&response, "Content-Type", "application/json")
    } else if let body {
      response.body = Array(body.utf8)
      if preset == nil { setHeader(&response, "Content-Type", "text/plain; charset=utf-8") }
    }
    for header in headers { setHeader(&response, header.name, header.value) }
    return response
  }

  /// Adds this fault's headers to a normal answer.
  func decorate(_ response: ServerResponse) -> ServerResponse {
    var response = response
    for header in headers { setHeader(&response, header.name, header.value) }
    return response
  }
}

private func setHeader(_ response: inout ServerResponse, _ name: String, _ value: String) {
  response.headers.removeAll { $0.name.lowercased() == name.lowercased() }
  response.headers.append((name, value))
}

extension EmulatorFault.Preset {
  func response(for request: ServerRequest) -> ServerResponse {
    let onSupabase = request.path.hasPrefix("/auth/v1")
    switch self {
    case .drop:
      return .dropConnection
    case .html502:
      let page = """
        <html>
        <head><title>502 Bad Gateway</title></head>
        <body>
        <center><h1>502 Bad Gateway</h1></center>
        <hr><center>nginx</center>
        </body>
        </html>

        """
      return .text(502, page, contentType: "text/html")
    case .truncatedJSON:
      let whole =
        #"{"access_token":"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ0cnVuY2F0ZWQifQ.c2lnbmF0dXJl","token_type":"bearer","expires_in":3600,"refresh_token":"abcdefghijkl","user":{"id":"00000000-0000-4000-8000-000000000000"}}"#
      let bytes = Array(whole.utf8)
      return ServerResponse(
        status: 200, headers: [("Content-Type", "application/json")], body: Array(bytes.prefix(bytes.count / 2)))
    case .rateLimit:
      if onSupabase {
        return GoTrueError(status: 429, code: "over_request_rate_limit", message: "Request rate limit reached")
          .response(for: request)
      }
      // Production answers a business error: HTTP 400, no `status` (never 429 RESOURCE_EXHAUSTED).
      return googleError(400, message: Self.tooManyAttempts, status: nil)
    case .serverError:
      if onSupabase {
        return GoTrueError(status: 500, code: "unexpected_failure", message: "Internal server error")
          .response(for: request)
      }
      return googleError(500, message: "INTERNAL_ERROR", status: "INTERNAL")
    }
  }

  static let tooManyAttempts =
    "TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled due "
    + "to many failed login attempts. You can immediately restore it by resetting your password or you can try again later."

  private func googleError(_ code: Int, message: String, status: String?) -> ServerResponse {
    var error = JSONObject()
    error["code"] = .int(code)
    error["message"] = .string(message)
    error["errors"] = [["message": .string(message), "domain": "global", "reason": "invalid"]]
    if let status { error["status"] = .string(status) }
    let body: JSON = ["error": .object(error)]
    return ServerResponse(
      status: code, headers: [("Content-Type", "application/json; charset=UTF-8")], body: body.bytes)
  }
}
