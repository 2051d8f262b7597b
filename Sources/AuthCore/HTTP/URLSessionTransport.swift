import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HTTPTransport` over URLSession (libcurl on Linux). Enforces a whole-request deadline (URLSession's
/// own timeout is an idle timeout, so a slow drip would never end) and honours task cancellation.
///
/// The URLSession is made on the first request, not before: making its configuration, even an
/// ephemeral one, sets up Foundation's URL cache and cookie store, which create directories under
/// `$XDG_CACHE_HOME` (`~/.cache`) and `$XDG_DATA_HOME` (`~/.local/share`) although neither is
/// used (no cache, no cookies). While it is made those two variables name a path that cannot be
/// created, so nothing appears outside authsh's own directories; they are put back at once.
public final class URLSessionTransport: HTTPTransport, Sendable {
  private let made = Guarded<URLSession?>(nil)
  /// Bodies larger than this end the request as malformed (hostile 10 MB answers).
  public let maxResponseBytes: Int

  public init(maxResponseBytes: Int = 4 << 20) {
    self.maxResponseBytes = maxResponseBytes
  }

  /// Ephemeral, without a cookie store or a cache: auth answers are never kept on disk.
  private var session: URLSession {
    made.update { made in
      if let made { return made }
      let session = Self.withoutSideDirectories {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration)
      }
      made = session
      return session
    }
  }

  /// Runs `make` with `XDG_CACHE_HOME` and `XDG_DATA_HOME` pointing where no directory can be
  /// made (under `/proc`), then restores them (measured: the configuration alone creates
  /// `~/.cache/org.swift.foundation.URLCache/authsh` and `~/.local/share/bin`; later requests
  /// create nothing).
  static func withoutSideDirectories<T>(_ make: () -> T) -> T {
    let names = ["XDG_CACHE_HOME", "XDG_DATA_HOME"]
    let saved = names.map { name in getenv(name).map { String(cString: $0) } }
    for name in names { setenv(name, "/proc/authsh-no-such-directory", 1) }
    defer {
      for (name, value) in zip(names, saved) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
      }
    }
    return make()
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    // libcurl truncates timeouts to whole seconds and fails at once below 1 s (measured here).
    let deadline = request.timeout.isFinite ? min(max(1, request.timeout.rounded(.up)), Target.maximumTimeout) : 30
    urlRequest.timeoutInterval = deadline
    for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
    if let body = request.body { urlRequest.httpBody = Data(body) }

    let state = RequestState(host: request.url.host ?? "", maxBytes: maxResponseBytes)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
        let task = session.dataTask(with: urlRequest) { data, response, error in
          state.finish(continuation, result: Self.outcome(data: data, response: response, error: error, state: state))
        }
        state.start(task)
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) {
          if state.markTimedOut() { task.cancel() }
        }
      }
    } onCancel: {
      state.cancel()
    }
  }

  private static func outcome(data: Data?, response: URLResponse?, error: (any Error)?, state: RequestState)
    -> Result<HTTPResponse, TransportFailure>
  {
    if let error {
      if state.timedOut { return .failure(.timedOut) }
      let code = (error as? URLError)?.code
      switch code {
      case .timedOut?: return .failure(.timedOut)
      case .cancelled?: return .failure(.cancelled)
      case .cannotFindHost?, .dnsLookupFailed?:
        return .failure(.hostNotFound(error.localizedDescription))
      case .cannotConnectToHost?:
        // libcurl does not say why; on a loopback address nothing but a closed port fails this way.
        let detail = error.localizedDescription
        let loopback = HostPolicy.isLoopback(state.host)
        return .failure(loopback || detail.lowercased().contains("refused") ? .refused(detail) : .unreachable(detail))
      case .notConnectedToInternet?:
        return .failure(.unreachable(error.localizedDescription))
      case .networkConnectionLost?, .badServerResponse?, .zeroByteResource?:
        return .failure(.connectionLost(error.localizedDescription))
      default: return .failure(.other(error.localizedDescription))
      }
    }
    guard let http = response as? HTTPURLResponse else { return .failure(.connectionLost("no HTTP response")) }
    var headers: [(name: String, value: String)] = []
    for (name, value) in http.allHeaderFields {
      headers.append((String(describing: name), String(describing: value)))
    }
    if let data, data.count > state.maxBytes { return .failure(.tooLarge(bytes: state.maxBytes)) }
    return .success(HTTPResponse(status: http.statusCode, headers: headers, body: Array(data ?? Data())))
  }
}

/// Shared between the completion handler, the deadline and the cancellation handler.
private final class RequestState: Sendable {
  let host: String
  let maxBytes: Int
  private struct Progress {
    var task: URLSessionDataTask?
    var done = false
    var cancelledEarly = false
    var timedOut = false
  }
  private let progress = Guarded(Progress())

  init(host: String, maxBytes: Int) {
    self.host = host
    self.maxBytes = maxBytes
  }

  var timedOut: Bool { progress[\.timedOut] }

  func start(_ task: URLSessionDataTask) {
    let cancelNow = progress.update { progress in
      progress.task = task
      return progress.cancelledEarly
    }
    // Cancelled before it started: cancel first, so resuming only delivers the cancellation.
    if cancelNow { task.cancel() }
    task.resume()
  }

  func markTimedOut() -> Bool {
    progress.update { progress in
      guard !progress.done else { return false }
      progress.timedOut = true
      return true
    }
  }

  func cancel() {
    let current = progress.update { progress in
      if progress.task == nil { progress.cancelledEarly = true }
      return progress.task
    }
    current?.cancel()
  }

  func finish(_ continuation: CheckedContinuation<HTTPResponse, any Error>, result: Result<HTTPResponse, TransportFailure>) {
    let first = progress.update { progress in
      defer { progress.done = true }
      return !progress.done
    }
    guard first else { return }
    continuation.resume(with: result.mapError { $0 as any Error })
  }
}
