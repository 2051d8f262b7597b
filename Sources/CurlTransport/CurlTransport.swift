import AuthCore
import CCurl
import Essentials
import Synchronization

/// `HTTPTransport` over libcurl's easy interface, for `https://` (hosted projects). libcurl is
/// loaded on the first request (`dlopen`), not linked: a run that only speaks plain `http://` to
/// an emulator, and every start-up, skips mapping it and the thirty-odd libraries it needs (TLS,
/// Kerberos, LDAP, SSH…), which was half of `authsh --version`'s time.
///
/// Each request runs `curl_easy_perform` on a thread of its own (parallel bulk jobs block no
/// shared pool) with a whole-request deadline in milliseconds; cancelling the task aborts the
/// transfer at libcurl's next progress call. Easy handles are kept between requests, so
/// connections, TLS sessions and DNS answers are reused. Redirects are not followed (an
/// `apikey` header must not travel to another host), bodies are decompressed (gzip, br), and
/// `SSL_CERT_FILE` names a CA bundle to trust instead of the system's (a corporate proxy's CA).
package final class CurlTransport: HTTPTransport, Sendable {
  /// Bodies larger than this end the request (hostile 10 MB answers).
  package let maxResponseBytes: Int
  private let caBundle: String?
  private let idle = Mutex<[CurlEasy]>([])
  private static let keptIdle = 16

  /// `environment`: where `SSL_CERT_FILE` is read (the one the command runs with).
  package init(maxResponseBytes: Int = 4 << 20, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.maxResponseBytes = maxResponseBytes
    let bundle = environment["SSL_CERT_FILE"] ?? ""
    self.caBundle = bundle.isEmpty ? nil : bundle
  }

  deinit {
    idle.withLock { handles in
      for handle in handles { authsh_curl_easy_cleanup(handle.pointer) }
      handles.removeAll()
    }
  }

  /// Whether libcurl could be loaded (and, if not, why).
  package static func availability() -> Result<String, TransportFailure> {
    authsh_curl_load() == 1
      ? .success(String(cString: authsh_curl_loaded_name()))
      : .failure(.clientMissing(String(cString: authsh_curl_load_error())))
  }

  package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let name = request.unsendableHeader { throw TransportFailure.unsendableHeader(name) }
    if case .failure(let failure) = Self.availability() { throw failure }
    let transfer = CurlTransfer(
      request: request, milliseconds: Int(request.deadlineSeconds * 1000), maxBytes: maxResponseBytes,
      caBundle: caBundle)
    let handle = idle.withLock { $0.popLast() } ?? CurlEasy()
    guard let handle else { throw TransportFailure.other("libcurl could not make a handle (out of memory)") }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
        let started = startThread { [self] in
          let result = transfer.perform(on: handle)
          park(handle)
          continuation.resume(with: result.mapError { $0 as any Error })
        }
        if !started {
          park(handle)
          continuation.resume(throwing: TransportFailure.other("no thread for the request (the system's limit)"))
        }
      }
    } onCancel: {
      transfer.cancel()
    }
  }

  /// Keeps the handle (and its connections) for the next request, up to a few.
  private func park(_ handle: CurlEasy) {
    authsh_curl_easy_reset(handle.pointer)
    let kept = idle.withLock { handles in
      guard handles.count < Self.keptIdle else { return false }
      handles.append(handle)
      return true
    }
    if !kept { authsh_curl_easy_cleanup(handle.pointer) }
  }
}

/// One easy handle. Owned by one request at a time: the transport's pool hands it to a request's
/// thread and takes it back after `curl_easy_perform` returns, so it is never used concurrently;
/// the compiler cannot see that hand-over, hence `@unchecked`.
final class CurlEasy: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer

  init?() {
    guard let pointer = authsh_curl_easy_init() else { return nil }
    self.pointer = pointer
  }
}
