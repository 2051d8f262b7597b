import AuthCore
import HTTPServerKit
import ShellKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `login --oauth`'s browser half: a one-request HTTP listener on `127.0.0.1` (a port the system
/// picks) that the provider sends the browser back to, and `xdg-open` for the provider's page
/// where there is a display. The address is printed either way: with no display (a server over
/// ssh) it is opened by hand. Waits up to five minutes; Ctrl-C ends the wait.
final class LoopbackBrowserSignIn: BrowserSignIn {
  static let path = "/callback"
  private let environment: [String: String]
  private let sink: any OutputSink
  private let waitSeconds: UInt64
  private let state = Mutex(State())

  private struct State {
    var server: HTTPServer?
    var port = 0
    var returned: String?
    var failure: AuthError?
    var waiter: CheckedContinuation<String, any Error>?
  }

  init(environment: [String: String], sink: any OutputSink, waitSeconds: UInt64 = 300) {
    self.environment = environment
    self.sink = sink
    self.waitSeconds = waitSeconds
  }

  func listen() async throws -> String {
    let server = HTTPServer(host: "127.0.0.1", port: 0, threads: 1) { [weak self] request in
      await self?.answer(request) ?? ServerResponse(status: 503)
    }
    let port: Int
    do { port = try await server.start() } catch {
      throw AuthError(.configError, message: "Cannot listen on a loopback port for the browser to return to: \(error).")
    }
    // One shell runs many sign-ins through this listener: each starts with nothing received.
    state.withLock { $0 = State(server: server, port: port) }
    return "http://127.0.0.1:\(port)\(Self.path)"
  }

  private func answer(_ request: ServerRequest) async -> ServerResponse {
    guard request.method == "GET", request.path == Self.path else {
      return .text(404, "Not found: authsh waits for the browser at \(Self.path).")
    }
    let url = state.withLock { "http://127.0.0.1:\($0.port)" } + request.uri
    deliver(.success(url))
    let failed = request.query("error") != nil
    let text =
      failed
      ? "The sign-in did not finish. Go back to the terminal to see why."
      : "Signed in. You can close this tab and go back to the terminal."
    return ServerResponse(
      status: 200,
      headers: [
        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
        ("Content-Security-Policy", "default-src 'none'"), ("Referrer-Policy", "no-referrer"),
      ],
      body: Array("<!doctype html><meta charset=\"utf-8\"><title>authsh</title><p>\(text)</p>".utf8))
  }

  private func deliver(_ outcome: Result<String, AuthError>) {
    let waiter = state.withLock { state -> CheckedContinuation<String, any Error>? in
      guard state.returned == nil, state.failure == nil else { return nil }
      switch outcome {
      case .success(let url): state.returned = url
      case .failure(let error): state.failure = error
      }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(with: outcome.mapError { $0 as any Error })
  }

  func show(_ url: String, provider: String) {
    // The address comes from the backend: no control character reaches the terminal.
    let shown = String(String.UnicodeScalarView(url.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    sink.err("Open this address in a browser to sign in with \(provider):\n  \(shown)\n")
    let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
    guard display else { return }
    if Self.spawnDetached(["xdg-open", shown]) {
      sink.err("(opened in your browser; waiting for it to come back)\n")
    }
  }

  func callback() async throws -> String {
    let seconds = waitSeconds
    let timer = Task { [weak self] in
      try await Task.sleep(nanoseconds: seconds * 1_000_000_000)
      self?.deliver(
        .failure(AuthError(.timeout, message: "The browser did not come back within \(seconds / 60) minutes.")))
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
        let ready = state.withLock { state -> Result<String, AuthError>? in
          if let url = state.returned { return .success(url) }
          if let failure = state.failure { return .failure(failure) }
          state.waiter = continuation
          return nil
        }
        if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
      }
    } onCancel: {
      deliver(.failure(AuthError(.cancelled)))
    }
  }

  func close() async {
    let (server, answered) = state.withLock { state -> (HTTPServer?, Bool) in
      defer { state.server = nil }
      return (state.server, state.returned != nil)
    }
    // The browser's page is still being written when its address is delivered: a moment for it,
    // or the browser shows "connection reset" after a sign-in that worked.
    if answered, server != nil { try? await Task.sleep(nanoseconds: 300_000_000) }
    await server?.shutdown()
  }

  /// Starts `arguments` with its output discarded and does not wait for it.
  private static func spawnDetached(_ arguments: [String]) -> Bool {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
    }
    var pid = pid_t()
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    return posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0
  }
}
