import Foundation
import HTTPServerKit
import Synchronization

/// A real HTTP server on 127.0.0.1 (port 0) that answers from a route table and records every
/// request, for provider tests against recorded real-server answers.
package final class FixtureServer: Sendable {
  package typealias Route = @Sendable (ServerRequest) async -> ServerResponse
  private struct State {
    var routes: [(method: String, path: String, route: Route)] = []
    var recorded: [ServerRequest] = []
    var server: HTTPServer?
    var port = 0
  }
  private let state = Mutex(State())

  package var port: Int { state.withLock { $0.port } }

  package init() { FileDescriptorLimit.raiseSoftLimit() }

  package var baseURL: String { "http://127.0.0.1:\(port)" }

  package func start() async throws {
    let server = HTTPServer(host: "127.0.0.1", port: 0, threads: 1) { [weak self] request in
      guard let self else { return .text(500, "gone") }
      return await self.answer(request)
    }
    let port = try await server.start()
    state.withLock {
      $0.port = port
      $0.server = server
    }
  }

  package func stop() async { await state.withLock { $0.server }?.shutdown() }

  /// Answers `METHOD path` (path without query) with `route`; later routes win.
  package func on(_ method: String, _ path: String, _ route: @escaping Route) {
    state.withLock { $0.routes.insert((method, path, route), at: 0) }
  }

  package func on(_ method: String, _ path: String, status: Int, json: String, headers: [(String, String)] = []) {
    on(method, path) { _ in
      ServerResponse(
        status: status, headers: [("Content-Type", "application/json")] + headers.map { (name: $0.0, value: $0.1) },
        body: Array(json.utf8))
    }
  }

  package var requests: [ServerRequest] { state.withLock { $0.recorded } }

  package func reset() {
    state.withLock {
      $0.recorded = []
      $0.routes = []
    }
  }

  private func answer(_ request: ServerRequest) async -> ServerResponse {
    let route = state.withLock { state in
      state.recorded.append(request)
      return state.routes.first { $0.method == request.method && $0.path == request.path }?.route
    }
    guard let route else { return .text(404, "404 page not found") }
    return await route(request)
  }
}

extension ServerRequest {
  /// The request as curl-like text with the given secrets replaced by `***` (request snapshots).
  package func snapshot(
    redacting secrets: [String] = [],
    excludingHeaders: Set<String> = [
      "host", "content-length", "connection", "accept-encoding", "user-agent", "accept-language",
    ]
  ) -> String {
    var lines = ["\(method) \(uri)"]
    for header in headers.sorted(by: { $0.name.lowercased() < $1.name.lowercased() })
    where !excludingHeaders.contains(header.name.lowercased()) {
      lines.append("\(header.name): \(header.value)")
    }
    if !body.isEmpty {
      lines.append("")
      lines.append(String(decoding: body, as: UTF8.self))
    }
    var text = lines.joined(separator: "\n") + "\n"
    for secret in secrets where !secret.isEmpty {
      text = text.replacingOccurrences(of: secret, with: "***")
      if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
        text = text.replacingOccurrences(of: encoded, with: "***")
      }
    }
    return text
  }
}
