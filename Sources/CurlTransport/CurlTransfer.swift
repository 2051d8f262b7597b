import AuthCore
import CCurl
import Essentials
import Synchronization

/// One request through libcurl: its options, the answer collected by libcurl's callbacks, and
/// what a failure means. `perform` runs on the request's own thread; `cancel` may come from any.
final class CurlTransfer: Sendable {
  let request: HTTPRequest
  let milliseconds: Int
  let maxBytes: Int
  let caBundle: String?
  private let cancelled = Atomic<Bool>(false)

  init(request: HTTPRequest, milliseconds: Int, maxBytes: Int, caBundle: String?) {
    self.request = request
    self.milliseconds = milliseconds
    self.maxBytes = maxBytes
    self.caBundle = caBundle
  }

  func cancel() { cancelled.store(true, ordering: .relaxed) }
  var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  func perform(on handle: CurlEasy) -> Result<HTTPResponse, TransportFailure> {
    if isCancelled { return .failure(.cancelled) }
    let easy = handle.pointer
    let answer = CurlAnswer(maxBytes: maxBytes, transfer: self)
    var headers: UnsafeMutableRawPointer?
    // libcurl drops `Name:` with nothing after it; `Name;` is how it sends an empty value.
    for header in request.headers {
      headers = authsh_curl_slist_append(
        headers, header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
    }
    // No `Expect: 100-continue` wait before larger bodies, and no form content type made up for a
    // body-less POST.
    headers = authsh_curl_slist_append(headers, "Expect:")
    if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
      headers = authsh_curl_slist_append(headers, "Content-Type:")
    }
    defer { authsh_curl_slist_free_all(headers) }
    var errors = [CChar](repeating: 0, count: Int(AUTHSH_CURL_ERROR_SIZE))
    let body = request.body ?? []
    let code: Int = withExtendedLifetime(answer) {
      errors.withUnsafeMutableBufferPointer { errorBuffer in
        body.withUnsafeBufferPointer { bytes in
          configure(easy, headers: headers, errorBuffer: errorBuffer.baseAddress, body: bytes, answer: answer)
          return authsh_curl_perform(easy)
        }
      }
    }
    if code == AUTHSH_CURLE_OK {
      return .success(HTTPResponse(status: authsh_curl_response_code(easy), headers: answer.headers, body: answer.body))
    }
    let buffered = errors.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let detail = buffered.isEmpty ? String(cString: authsh_curl_strerror(code)) : buffered
    return .failure(failure(code, detail: detail, tooLarge: answer.tooLarge))
  }

  private func configure(
    _ easy: UnsafeMutableRawPointer, headers: UnsafeMutableRawPointer?, errorBuffer: UnsafeMutablePointer<CChar>?,
    body: UnsafeBufferPointer<UInt8>, answer: CurlAnswer
  ) {
    let context = Unmanaged.passUnretained(answer).toOpaque()
    authsh_curl_setopt_string(easy, AUTHSH_CURLOPT_URL, request.url.absoluteString)
    // Only http and https, whatever a URL says (libcurl also speaks file://, ftp://, …); the
    // string form is libcurl 7.85 and later, the bit mask the one before.
    if authsh_curl_setopt_string(easy, AUTHSH_CURLOPT_PROTOCOLS_STR, "http,https") == AUTHSH_CURLE_UNKNOWN_OPTION {
      authsh_curl_setopt_long(easy, AUTHSH_CURLOPT_PROTOCOLS, AUTHSH_CURLPROTO_HTTP_HTTPS)
    }
    authsh_curl_setopt_string(easy, AUTHSH_CURLOPT_USERAGENT, "authsh/\(AuthshVersion.current)")
    authsh_curl_setopt_pointer(easy, AUTHSH_CURLOPT_HTTPHEADER, headers)
    authsh_curl_setopt_pointer(easy, AUTHSH_CURLOPT_ERRORBUFFER, errorBuffer)
    authsh_curl_setopt_long(easy, AUTHSH_CURLOPT_NOSIGNAL, 1)
    authsh_curl_setopt_long(easy, AUTHSH_CURLOPT_TIMEOUT_MS, milliseconds)
    authsh_curl_setopt_long(easy, AUTHSH_CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
    // "" asks for every encoding this libcurl decodes.
    authsh_curl_setopt_string(easy, AUTHSH_CURLOPT_ACCEPT_ENCODING, "")
    if let caBundle { authsh_curl_setopt_string(easy, AUTHSH_CURLOPT_CAINFO, caBundle) }
    authsh_curl_setopt_data_callback(easy, AUTHSH_CURLOPT_WRITEFUNCTION, CurlAnswer.receiveBody)
    authsh_curl_setopt_pointer(easy, AUTHSH_CURLOPT_WRITEDATA, context)
    authsh_curl_setopt_data_callback(easy, AUTHSH_CURLOPT_HEADERFUNCTION, CurlAnswer.receiveHeader)
    authsh_curl_setopt_pointer(easy, AUTHSH_CURLOPT_HEADERDATA, context)
    authsh_curl_setopt_long(easy, AUTHSH_CURLOPT_NOPROGRESS, 0)
    authsh_curl_setopt_progress_callback(easy, AUTHSH_CURLOPT_XFERINFOFUNCTION, CurlAnswer.progress)
    authsh_curl_setopt_pointer(easy, AUTHSH_CURLOPT_XFERINFODATA, context)
    switch request.method {
    case "GET" where body.isEmpty:
      authsh_curl_setopt_long(easy, AUTHSH_CURLOPT_HTTPGET, 1)
    case "HEAD":
      authsh_curl_setopt_long(easy, AUTHSH_CURLOPT_NOBODY, 1)
    default:
      authsh_curl_setopt_string(easy, AUTHSH_CURLOPT_CUSTOMREQUEST, request.method)
      if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
        // libcurl reads the body from this pointer during the transfer (it does not copy it);
        // with no pointer at all it would read standard input instead.
        authsh_curl_setopt_size(easy, AUTHSH_CURLOPT_POSTFIELDSIZE_LARGE, Int64(body.count))
        authsh_curl_setopt_pointer(
          easy, AUTHSH_CURLOPT_POSTFIELDS, body.baseAddress.map(UnsafeRawPointer.init) ?? authsh_curl_empty_body())
      }
    }
  }

  /// What a libcurl error means to the error catalogue.
  private func failure(_ code: Int, detail: String, tooLarge: Bool) -> TransportFailure {
    switch code {
    case AUTHSH_CURLE_ABORTED_BY_CALLBACK: return isCancelled ? .cancelled : .other(detail)
    case AUTHSH_CURLE_WRITE_ERROR: return tooLarge ? .tooLarge(bytes: maxBytes) : .other(detail)
    case AUTHSH_CURLE_OPERATION_TIMEDOUT: return .timedOut
    case AUTHSH_CURLE_COULDNT_RESOLVE_HOST: return .hostNotFound(detail)
    case AUTHSH_CURLE_COULDNT_RESOLVE_PROXY: return .unreachable(detail)
    case AUTHSH_CURLE_COULDNT_CONNECT:
      let loopback = HostPolicy.isLoopback(request.url.host ?? "")
      return loopback || detail.lowercased().contains("refused") ? .refused(detail) : .unreachable(detail)
    case AUTHSH_CURLE_GOT_NOTHING, AUTHSH_CURLE_SEND_ERROR, AUTHSH_CURLE_RECV_ERROR, AUTHSH_CURLE_PARTIAL_FILE,
      AUTHSH_CURLE_WEIRD_SERVER_REPLY, AUTHSH_CURLE_HTTP2, AUTHSH_CURLE_HTTP2_STREAM:
      return .connectionLost(detail)
    case AUTHSH_CURLE_SSL_CONNECT_ERROR, AUTHSH_CURLE_PEER_FAILED_VERIFICATION, AUTHSH_CURLE_SSL_CERTPROBLEM,
      AUTHSH_CURLE_SSL_CIPHER, AUTHSH_CURLE_SSL_CACERT_BADFILE, AUTHSH_CURLE_SSL_CRL_BADFILE,
      AUTHSH_CURLE_SSL_ISSUER_ERROR,
      AUTHSH_CURLE_SSL_PINNEDPUBKEYNOTMATCH, AUTHSH_CURLE_SSL_INVALIDCERTSTATUS:
      return .tls(detail)
    default: return .other(detail)
    }
  }
}

/// The answer as libcurl hands it over, on the request's thread only.
final class CurlAnswer {
  let maxBytes: Int
  let transfer: CurlTransfer
  var body: [UInt8] = []
  var headers: [(name: String, value: String)] = []
  var tooLarge = false

  init(maxBytes: Int, transfer: CurlTransfer) {
    self.maxBytes = maxBytes
    self.transfer = transfer
  }

  static func of(_ context: UnsafeMutableRawPointer?) -> CurlAnswer? {
    context.map { Unmanaged<CurlAnswer>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Returning less than was given ends the transfer (CURLE_WRITE_ERROR).
  static let receiveBody: authsh_curl_data_callback = { data, size, count, context in
    guard let answer = of(context), let data else { return 0 }
    let length = size * count
    guard answer.body.count + length <= answer.maxBytes else {
      answer.tooLarge = true
      return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
      answer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
  }

  /// One header line at a time; a status line (a redirect's, a `100 Continue`) starts a new set.
  static let receiveHeader: authsh_curl_data_callback = { data, size, count, context in
    guard let answer = of(context), let data else { return 0 }
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
      answer.headers.removeAll()
    } else if let colon = line.firstIndex(of: ":") {
      let name = line[..<colon].trimmingSpaces
      let value = line[line.index(after: colon)...].trimmingSpacesAndNewlines
      if !name.isEmpty { answer.headers.append((name, value)) }
    }
    return length
  }

  /// Non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK): how a task's cancellation reaches it.
  static let progress: authsh_curl_progress_callback = { context, _, _, _, _ in
    guard let answer = of(context) else { return 0 }
    return answer.transfer.isCancelled ? 1 : 0
  }
}
