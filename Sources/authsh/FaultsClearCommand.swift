import AuthCore
import CurlTransport
import Essentials
import NIOTransport
import ShellKit

/// `authsh emulator faults clear [--host H] [--port N | --url URL]`: asks a running emulator to
/// drop its injected faults (`DELETE /emulator/v1/faults`), as a CI step between scenarios.
enum FaultsClearCommand {
  /// As long as any other request authsh sends may take (a busy CI machine can be slow to answer).
  static let timeout: Double = 30
  static func run(_ invocation: Invocation, sink: StandardSink) async -> Int32 {
    let base: String
    if let url = invocation[.faultsURL] {
      if invocation.hasAny([FlagKey.faultsHost, FlagKey.faultsPort]) {
        return Authsh.usage(
          UsageError("--url names the emulator whole; leave out --host and --port"), command: invocation.spec.name,
          sink: sink)
      }
      // Faults live at the root: a URL with a path (`…/auth/v1`) means its origin.
      guard let parsed = URLComponents(string: url), let scheme = parsed.scheme, let host = parsed.host, !host.isEmpty
      else {
        return Authsh.usage(
          UsageError("'\(url)' is not an http:// URL of an emulator"), command: invocation.spec.name, sink: sink)
      }
      base = scheme + "://" + (host.contains(":") ? "[\(host)]" : host) + (parsed.port.map { ":\($0)" } ?? "")
    } else {
      let host = invocation[.faultsHost] ?? "127.0.0.1"
      let number = invocation[.faultsPort] ?? 54321
      base = "http://" + (host.contains(":") ? "[\(host)]" : host) + ":\(number)"
    }
    guard let url = URL(string: base + "/emulator/v1/faults"), let scheme = url.scheme?.lowercased(),
      ["http", "https"].contains(scheme), url.host != nil
    else {
      return Authsh.usage(
        UsageError("'\(base)' is not an http:// URL of an emulator"), command: invocation.spec.name, sink: sink)
    }
    let transport = SchemeRoutingTransport(fallback: CurlTransport())
    do {
      let response = try await transport.send(HTTPRequest(method: "DELETE", url: url, timeout: Self.timeout))
      guard (200..<300).contains(response.status) else {
        let what = response.status == 404 ? "it is not an authsh emulator" : "it answered HTTP \(response.status)"
        sink.err("error: could not clear the faults of \(TerminalText.escape(base)): \(what)\n")
        return 1
      }
      sink.out("Cleared the faults of \(TerminalText.escape(base)).\n")
      return 0
    } catch let failure as TransportFailure {
      sink.err("error: could not clear the faults of \(TerminalText.escape(base)): \(describe(failure))\n")
      return ExitStatus.backend
    } catch {
      sink.err("error: could not clear the faults of \(TerminalText.escape(base)): the request failed\n")
      return ExitStatus.backend
    }
  }

  static func describe(_ failure: TransportFailure) -> String {
    switch failure {
    case .refused: return "nothing is listening there; is `authsh emulator` running on that port?"
    case .hostNotFound: return "the host name does not resolve"
    case .timedOut: return "it did not answer within \(Int(Self.timeout)) s"
    case .cancelled: return "cancelled"
    case .connectionLost: return "the connection closed before an answer"
    case .tooLarge: return "its answer was too large"
    case .tls: return "no trusted TLS connection"
    case .clientMissing: return "libcurl is not installed"
    case .unsendableHeader(let name): return "the \(name) header holds a character HTTP cannot carry"
    case .unreachable, .other: return "the emulator cannot be reached"
    }
  }
}
