import AuthCore
import Foundation
import NIOCore
import NIOPosix
import NIOTransport
import Testing

/// What a failed connect becomes: the reason a user reads is the system's ("No route to host"),
/// not NIO's description of the call that failed.
@Suite struct ConnectFailureTests {
  @Test func noRouteIsUnreachableInTheSystemsWords() {
    let failure = NIOHTTPTransport.connectFailure(
      IOError(errnoCode: EHOSTUNREACH, reason: "connect(descriptor:addr:size:)"))
    #expect(failure == .unreachable(String(cString: strerror(EHOSTUNREACH))))
    #expect(failure != .unreachable(""))
  }

  @Test func refusedStaysRefused() {
    let failure = NIOHTTPTransport.connectFailure(IOError(errnoCode: ECONNREFUSED, reason: "connect"))
    guard case .refused = failure else {
      Issue.record("expected refused, got \(failure)")
      return
    }
  }

  @Test func aConnectTimeoutIsATimeout() {
    #expect(NIOHTTPTransport.connectFailure(ChannelError.connectTimeout(.seconds(1))) == .timedOut)
  }
}
