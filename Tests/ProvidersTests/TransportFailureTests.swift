import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import ShellKit
import Testing

/// Failures with no usable HTTP answer, and the catalogue rows decided on the client.
@Suite struct TransportFailureTests {
  /// The deadline itself (a 4 s answer cut at 1 s) is measured in bench/client.sh, not asserted here.
  @Test(arguments: ProviderKind.allCases, TransportKind.allCases)
  func slowAnswerPastTimeoutIsTimeout(_ provider: ProviderKind, _ transport: TransportKind) async throws {
    try await withStarted(Harness(provider, transport: transport)) { harness in
      harness.server.on(
        "POST",
        provider == .supabase ? "/auth/v1/token" : "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
      ) { _ in
        await Stall.hold(upTo: .seconds(4))
        return .text(200, "{}")
      }
      let result = try await harness.run("login ada@example.com --password correct-horse-battery --timeout 1s")
      #expect(result.error?.code == .timeout)
      #expect(result.error?.message == "Connection timed out. Check your network and try again.")
      #expect(ExitStatus.oneShot(result) == 3)
    }
  }

  @Test(arguments: ProviderKind.allCases, TransportKind.allCases)
  func closedPortIsUnreachable(_ provider: ProviderKind, _ transport: TransportKind) async throws {
    let harness = try await Harness(provider, transport: transport)
    await harness.stop()
    // A port that stays refused while the test runs (a freed one can be taken by a parallel test).
    let reserved = try ReservedPort()
    let port = reserved.port
    defer { withExtendedLifetime(reserved) {} }
    let result = try await harness.run(
      "login ada@example.com --password correct-horse-battery",
      context: harness.context(url: "http://127.0.0.1:\(port)"))
    #expect(result.error?.code == .networkUnreachable)
    #expect(
      result.error?.message == "Could not connect to 127.0.0.1:\(port) (connection refused) — is the server running?")
    #expect(ExitStatus.oneShot(result) == 3)
    // Nothing left the machine: a batch does not count it as "sent, no answer".
    #expect(result.error?.neverSent == true && result.error?.isNoAnswer == false)
  }

  /// TLS goes through libcurl, whose message may not say "refused"; on loopback nothing else fails that way.
  @Test func closedLoopbackPortOverHTTPSIsRefused() async throws {
    let harness = try await Harness(.supabase)
    await harness.stop()
    // A port that stays refused while the test runs (a freed one can be taken by a parallel test).
    let reserved = try ReservedPort()
    let port = reserved.port
    defer { withExtendedLifetime(reserved) {} }
    let result = try await harness.run(
      "login ada@example.com --password correct-horse-battery",
      context: harness.context(url: "https://127.0.0.1:\(port)"))
    #expect(result.error?.code == .networkUnreachable)
    #expect(
      result.error?.message == "Could not connect to 127.0.0.1:\(port) (connection refused) — is the server running?")
    #expect(ExitStatus.oneShot(result) == 3)
  }

  @Test(arguments: [
    ("127.0.0.1:54321", "Did you mean http://127.0.0.1:54321?"),
    ("localhost:54321/", "Did you mean http://localhost:54321?"),
    ("abcd.supabase.co", "Did you mean https://abcd.supabase.co?"),
  ])
  func urlWithoutSchemeSuggestsOne(_ url: String, _ hint: String) async throws {
    try await withStarted(Harness(.supabase)) { harness in
      let result = try await harness.run(
        "login ada@example.com --password correct-horse-battery", context: harness.context(url: url))
      #expect(result.error?.code == .configError)
      #expect(
        result.error?.message
          == "The Supabase URL '\(url.hasSuffix("/") ? String(url.dropLast()) : url)' does not start with http:// or https://."
      )
      #expect(result.error?.hint == hint)
      #expect(ExitStatus.oneShot(result) == ExitStatus.configuration, "a configuration problem found before sending")
    }
  }

  @Test(arguments: TransportKind.allCases)
  func unsupportedSchemeSaysSoAndSendsNothing(_ transport: TransportKind) async throws {
    try await withStarted(Harness(.supabase, transport: transport)) { harness in
      let url = "ftp://127.0.0.1:\(harness.server.port)"
      let result = try await harness.run(
        "login ada@example.com --password correct-horse-battery", context: harness.context(url: url))
      #expect(result.error?.code == .configError)
      #expect(result.error?.message == "The Supabase URL '\(url)' uses the unsupported scheme 'ftp'.")
      #expect(result.error?.hint == "authsh speaks http:// (local emulators) and https:// (hosted projects).")
      #expect(ExitStatus.oneShot(result) == ExitStatus.configuration)
      #expect(harness.server.requests.isEmpty)
    }
  }

  @Test(arguments: ProviderKind.allCases, TransportKind.allCases)
  func droppedConnectionIsAnError(_ provider: ProviderKind, _ transport: TransportKind) async throws {
    try await withStarted(Harness(provider, transport: transport)) { harness in
      harness.server.on(
        "POST",
        provider == .supabase ? "/auth/v1/token" : "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
      ) { _ in
        .dropConnection
      }
      let result = try await harness.run("login ada@example.com --password correct-horse-battery")
      let code = try #require(result.error?.code)
      #expect([.malformedResponse, .networkUnreachable, .serverError].contains(code))
      #expect(ExitStatus.oneShot(result) == 3)
    }
  }

  @Test(arguments: TransportKind.allCases)
  func tenMegabyteGarbageIsMalformed(_ transport: TransportKind) async throws {
    try await withStarted(Harness(.supabase, transport: transport)) { harness in
      let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)
      harness.server.on("POST", "/auth/v1/token") { _ in
        ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: junk)
      }
      let result = try await harness.run("login ada@example.com --password correct-horse-battery")
      #expect(result.error?.code == .malformedResponse)
    }
  }

  @Test(arguments: ProviderKind.allCases)
  func notSignedInSendsNothing(_ provider: ProviderKind) async throws {
    try await withStarted(Harness(provider)) { harness in
      for line in ["whoami", "refresh", "logout"] {
        let result = try await harness.run(line)
        #expect(result.error?.code == .notAuthenticated)
        #expect(result.error?.message == "You are not signed in.")
        #expect(ExitStatus.oneShot(result) == 4)
      }
      #expect(harness.server.requests.isEmpty)
    }
  }

  @Test(arguments: ProviderKind.allCases)
  func resetCooldownIsPerAddress(_ provider: ProviderKind) async throws {
    try await withStarted(Harness(provider)) { harness in
      let clock = ManualClock()
      harness.clock = clock
      harness.server.on(
        "POST", provider == .supabase ? "/auth/v1/recover" : "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode",
        status: 200, json: "{}")
      #expect(try await harness.run("reset ada@example.com").ok)
      clock.advance(17)
      let again = try await harness.run("reset ADA@example.com")
      #expect(again.error?.code == .resetCooldown)
      #expect(again.error?.retryAfterSeconds == 43)
      #expect(again.error?.message == "Already sent, check your inbox. You can send another in 43 seconds.")
      #expect(ExitStatus.oneShot(again) == 1)
      #expect(try await harness.run("reset bob@example.com").ok, "another address is not held back")
      clock.advance(43)
      #expect(try await harness.run("reset ada@example.com").ok, "after 60 s the address may be sent another")
      #expect(harness.server.requests.count == 3)
    }
  }

  @Test(arguments: ProviderKind.allCases)
  func plainHTTPToARemoteHostIsRefused(_ provider: ProviderKind) async throws {
    try await withStarted(Harness(provider)) { harness in
      let result = try await harness.run(
        "login ada@example.com --password correct-horse-battery",
        context: harness.context(url: "http://auth.example.com")
      )
      #expect(result.error?.code == .insecureURL)
      #expect(
        result.error?.message
          == "Refusing to send credentials over plain HTTP to auth.example.com (use https, or --allow-insecure-http)")
    }
  }

  @Test func nothingConfiguredSaysWhatToSet() async throws {
    let context = ShellContext(
      resolver: ConfigResolver(environment: [:], paths: Paths(environment: ["HOME": "/home/ada"]), configFile: nil),
      makeProvider: { _, _ in fatalError("no provider without a target") }, sessionStore: InMemorySessionStore())
    let words = try WordSplitter.split("login ada@example.com --password correct-horse-battery")
    guard case .success(let invocation) = InvocationParser.parse(words, surface: .script) else {
      Issue.record("parse")
      return
    }
    let result = await CommandRunner().run(invocation, in: context)
    #expect(result.error?.code == .configError)
    #expect(result.error?.hint?.contains("SUPABASE_URL") == true)
    #expect(result.error?.hint?.contains("authsh emulator") == true)
  }
}

/// A key or token with a line break would smuggle a header of its own (or end the request head)
/// if it went out as written: nothing is sent, on either transport, and the message says where to look.
@Suite struct UnsendableHeaderTests {
  /// (Firebase's key goes in the query string, percent-encoded: it cannot break a header.)
  @Test(arguments: TransportKind.allCases)
  func aKeyWithALineBreakIsRefusedBeforeAnythingIsSent(_ transport: TransportKind) async throws {
    try await withStarted(Harness(.supabase, transport: transport)) { harness in
      harness.environment["SUPABASE_ANON_KEY"] = "key\r\nX-Injected: 1"
      let result = try await harness.run("login ada@example.com --password correct-horse-battery")
      #expect(result.error?.code == .configError)
      #expect(result.error?.message.contains("line break") == true)
      #expect(harness.server.requests.isEmpty)
    }
  }

  @Test(arguments: [
    ("X-Test", "a\r\nX-Injected: 1"), ("X-Test", "a\nb"), ("X-Test", "a\u{0}b"), ("X Test", "a"), ("", "a"),
    ("X-Test:", "a"),
  ])
  func eachTransportRefusesWhatHTTPCannotCarry(_ name: String, _ value: String) async throws {
    let request = HTTPRequest(
      method: "GET", url: try #require(URL(string: "http://127.0.0.1:9/x")), headers: [(name, value)])
    #expect(request.unsendableHeader == name)
    for transport in TransportKind.allCases {
      await #expect(throws: TransportFailure.unsendableHeader(name)) { _ = try await transport.make().send(request) }
    }
  }

  /// Whatever its place in a long value (the check reads eight bytes at a time).
  @Test func aControlCharacterIsFoundAnywhereInALongValue() throws {
    let url = try #require(URL(string: "http://127.0.0.1:9/x"))
    for bad in ["\r", "\n", "\u{0}", "\u{1F}", "\u{7F}"] {
      for position in 0..<40 {
        var characters = Array(repeating: "a", count: 40)
        characters[position] = bad
        let request = HTTPRequest(
          method: "GET", url: url, headers: [("Authorization", "Bearer " + characters.joined())])
        #expect(request.unsendableHeader == "Authorization", "\(position)")
      }
    }
    let fine = HTTPRequest(
      method: "GET", url: url, headers: [("Authorization", "Bearer é\t~ÿ" + String(repeating: "x~\u{80}", count: 30))])
    #expect(fine.unsendableHeader == nil)
  }

  /// A header name is a token: letters, digits and `!#$%&'*+-.^_`|~`, nothing else (each of the
  /// first 256 characters in the middle of a name).
  @Test func aHeaderNameTakesTheTokenCharactersOnly() throws {
    let url = try #require(URL(string: "http://127.0.0.1:9/x"))
    let token = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~".unicodeScalars)
    for value in 0..<256 {
      let scalar = try #require(Unicode.Scalar(value))
      let name = "X-" + String(Character(scalar)) + "-Y"
      let request = HTTPRequest(method: "GET", url: url, headers: [(name, "1")])
      #expect((request.unsendableHeader == nil) == token.contains(scalar), "\(value)")
    }
  }

  /// Plain HTTP goes only to this machine: `localhost`, a dotted-quad literal in 127.0.0.0/8 and
  /// ::1, in any case and with or without brackets; a name that only looks like one (which DNS or
  /// a hosts entry may send anywhere) is not.
  @Test(arguments: [
    ("localhost", true), ("LocalHost", true), ("127.0.0.1", true), ("127.5.6.7", true), ("127.255.255.255", true),
    ("[::1]", true), ("::1", true), ("localhost.example.com", false), ("notlocalhost", false), ("api.localhost", false),
    ("API.LOCALHOST", false), ("127.evil.test", false), ("127.0.0.1.evil.test", false), ("127.0.0.1.", false),
    ("127.1", false), ("127.0.0.01", false), ("127.0.0.256", false), ("127.0.0.-1", false), ("127..0.1", false),
    ("[[::1]]", false), ("[localhost]", false), ("128.0.0.1", false), ("1270.0.0.1", false), ("::2", false),
    ("", false),
    ("example.com", false), ("127", false),
  ])
  func onlyThisMachineIsLoopback(_ host: String, _ loopback: Bool) {
    #expect(HostPolicy.isLoopback(host) == loopback)
  }

  @Test func schemesAreMatchedInAnyCase() throws {
    #expect(try #require(URL(string: "HtTp://127.0.0.1/")).hasScheme("http"))
    #expect(try #require(URL(string: "HTTPS://example.com/")).hasScheme("https"))
    #expect(!(try #require(URL(string: "https://example.com/")).hasScheme("http")))
    #expect(!(try #require(URL(string: "httpx://example.com/")).hasScheme("http")))
    #expect(!(try #require(URL(string: "/relative")).hasScheme("http")))
  }

  @Test func tabsAndTextBeyondASCIIGoAsTheyAre() throws {
    let request = HTTPRequest(
      method: "GET", url: try #require(URL(string: "http://127.0.0.1:9/x")),
      headers: [("X-Test", "a\tb é"), ("x_y.z~", "1")])
    #expect(request.unsendableHeader == nil)
  }
}
