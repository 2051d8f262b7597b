import AuthCore
import Essentials
import JSONKit

/// Sends provider requests: enforces HTTPS (loopback excepted), applies the timeout, traces with
/// secrets masked, and turns transport failures into `AuthError`s.
struct WireClient: Sendable {
  let transport: any HTTPTransport
  let timeout: Double
  let allowInsecureHTTP: Bool
  let trace: (@Sendable (String) -> Void)?
  /// Given the TOTP secrets of an answer before the answer is traced, so that the redactor masks
  /// them wherever else they show up (the trace masks their fields itself).
  var secrets: (@Sendable (String) -> Void)? = nil

  /// What the checks below read of a request URL, worked out once per URL: FoundationEssentials'
  /// `URL` parses its string again on every `scheme` and `host` read.
  private struct Checked: Sendable {
    var usable: Bool
    /// What `HostPolicy` refuses when plain HTTP is not allowed (nil: nothing).
    var insecure: AuthError?
  }

  private static let checked = Memo<URL, Checked>()

  func send(_ method: String, _ url: URL, headers: [(String, String)], body: [UInt8]? = nil) async throws
    -> HTTPResponse
  {
    let facts = Self.checked.value(for: url) {
      let usable = (url.hasScheme("http") || url.hasScheme("https")) && url.host?.isEmpty == false
      return Checked(usable: usable, insecure: HostPolicy.refusal(url))
    }
    guard facts.usable else {
      throw EndpointCheck.problem(url.absoluteString, what: "The URL")
        ?? AuthError(.configError, message: "The URL '\(url.absoluteString)' cannot be used.")
    }
    if !allowInsecureHTTP, let refusal = facts.insecure { throw refusal }
    let request = HTTPRequest(
      method: method, url: url, headers: headers.map { (name: $0.0, value: $0.1) }, body: body, timeout: timeout)
    trace?(WireTrace.describe(request))
    let started = Date()
    do {
      let response = try await transport.send(request)
      if let trace {
        if let secrets { WireTrace.enrolmentSecrets(in: response.body).forEach(secrets) }
        trace(WireTrace.describe(response, elapsed: Date().timeIntervalSince(started)))
      }
      return response
    } catch let failure as TransportFailure {
      trace?("< no response: \(failure)")
      throw Self.map(failure, url: url)
    } catch is CancellationError {
      throw AuthError(.cancelled)
    }
  }

  /// `127.0.0.1:54321`, with the scheme's default port when the URL names none.
  static func hostAndPort(_ url: URL) -> String {
    let host = url.host ?? "?"
    let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// A transport's detail as a reason in a sentence: no trailing full stop, at most one line.
  static func reason(_ detail: String) -> String {
    var line = String(detail.split(whereSeparator: \.isNewline).first ?? "")
    while line.hasSuffix(".") || line.hasSuffix(" ") { line.removeLast() }
    return line.isEmpty ? "no reason given" : line
  }

  static func map(_ failure: TransportFailure, url: URL) -> AuthError {
    var error = describe(failure, url: url)
    switch failure {
    case .unreachable, .refused, .hostNotFound, .tls, .clientMissing, .unsendableHeader: error.neverSent = true
    case .timedOut, .cancelled, .connectionLost, .tooLarge, .other: break
    }
    return error
  }

  private static func describe(_ failure: TransportFailure, url: URL) -> AuthError {
    switch failure {
    case .unreachable(let detail):
      // Not "no internet connection": the network may be fine and this one host (or the proxy
      // on the way) out of reach.
      return AuthError(
        .networkUnreachable,
        message:
          "Could not reach \(hostAndPort(url)): \(reason(detail)). Check the URL, your network and any proxy setting (https_proxy).",
        detail: "\(url.host ?? "?"): \(detail)")
    case .refused(let detail):
      return AuthError(
        .networkUnreachable,
        message: "Could not connect to \(hostAndPort(url)) (connection refused) — is the server running?",
        detail: detail)
    case .hostNotFound(let detail):
      return AuthError(
        .networkUnreachable,
        message: "Could not find the host \(url.host ?? "?") (DNS lookup failed). Check the URL and your network.",
        detail: detail)
    case .timedOut:
      return AuthError(.timeout)
    case .cancelled:
      return AuthError(.cancelled)
    case .connectionLost(let detail):
      return AuthError(.malformedResponse, detail: "the connection closed before a complete answer (\(detail))")
    case .tls(let detail):
      return AuthError(
        .networkUnreachable,
        message:
          "No trusted TLS connection to \(hostAndPort(url)): \(detail). If a proxy re-signs HTTPS traffic, set SSL_CERT_FILE to its CA bundle.",
        detail: detail)
    case .clientMissing(let detail):
      return AuthError(
        .networkUnreachable,
        message:
          "authsh reaches https:// servers through libcurl, which is not installed here. Install it (Debian, Ubuntu: apt install libcurl4).",
        detail: detail)
    case .tooLarge(let bytes):
      return AuthError(
        .malformedResponse,
        message:
          "The server's answer is larger than \(bytes >> 20) MB, more than authsh reads; nothing was taken from it.",
        detail: "response body over \(bytes) bytes from \(hostAndPort(url))")
    case .unsendableHeader(let name):
      return AuthError(
        .configError,
        message: "The \(name) header would carry a line break or another control character, which HTTP does not allow.",
        hint: "Check the key or token it comes from for a stray line end (a value pasted with its newline).")
    case .other(let detail):
      return AuthError(
        .networkUnreachable, message: "The request to \(hostAndPort(url)) failed: \(reason(detail)).", detail: detail)
    }
  }
}

/// Parses a response body as JSON or ends in `malformed_response` (server_error for 5xx pages).
enum WireBody {
  static func json(_ response: HTTPResponse) throws -> JSON {
    do {
      return try JSON.parse(bytes: response.body)
    } catch {
      if response.status >= 500 { throw serverError(response) }
      throw AuthError(
        .malformedResponse, status: response.status,
        detail: "HTTP \(response.status) body is not JSON (\(error)): \(snippet(response))")
    }
  }

  static func serverError(_ response: HTTPResponse) -> AuthError {
    AuthError(.serverError, status: response.status, detail: "HTTP \(response.status): \(snippet(response))")
  }

  static func snippet(_ response: HTTPResponse) -> String {
    let text = response.bodyText.replacingAll("\n", with: " ")
    return text.count > 120 ? String(text.prefix(120)) + "…" : text
  }

  static func missing(_ field: String, in response: HTTPResponse) -> AuthError {
    AuthError(
      .malformedResponse, status: response.status,
      detail: "the answer has no usable '\(field)': \(snippet(response))")
  }

  /// `Retry-After` in seconds, when the server sent one.
  static func retryAfter(_ response: HTTPResponse) -> Int? {
    response.header("Retry-After").flatMap { Int($0.trimmingWhitespace) }.flatMap { $0 >= 0 ? $0 : nil }
  }
}

/// Typed access to a JSON answer that fails with `malformed_response`, never crashes.
struct WireReader {
  let json: JSON
  let response: HTTPResponse

  func string(_ key: String) throws -> String {
    guard let value = json[key]?.string else { throw WireBody.missing(key, in: response) }
    return value
  }

  func optionalString(_ key: String) -> String? { json[key]?.string }
}

/// `application/x-www-form-urlencoded` values: emulator refresh tokens contain `+ / =`.
enum FormEncoding {
  static func encode(_ value: String) -> String {
    value.percentEncoded(keeping: "-._~")
  }
}
