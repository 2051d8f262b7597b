import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: escaping, token and origin")
struct ConsoleSafetyTests {
  @Test("account data is escaped as text, never markup")
  func escaping() {
    #expect(ConsoleHTML.text("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;")
    #expect(ConsoleHTML.text(#"a"b'c&d"#) == "a&quot;b&#39;c&amp;d")
    #expect(ConsoleHTML.attribute(#"" onfocus="x"#) == "&quot; onfocus=&quot;x")
    #expect(ConsoleHTML.text("plain ünïcode") == "plain ünïcode")
    #expect(ConsoleHTML.safeLink("javascript:alert(1)") == nil)
    #expect(ConsoleHTML.safeLink(" http://x") == nil)
    #expect(ConsoleHTML.safeLink("HTTP://127.0.0.1/verify?token=a") == "HTTP://127.0.0.1/verify?token=a")
    let unsafe = ConsoleInboxPage.mailLink("javascript:alert(1)")
    #expect(unsafe.hasPrefix("javascript:alert(1)<button type=\"button\" class=\"copy\"") && !unsafe.contains("<a "))
    #expect(ConsoleHTML.link("/_/?q=\"><x", "<b>") == #"<a href="/_/?q=&quot;&gt;&lt;x">&lt;b&gt;</a>"#)
  }

  @Test("loopback names, with and without a port")
  func loopback() {
    for host in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"] {
      #expect(ConsoleGuard.isLoopback(host), "\(host)")
    }
    for host in ["0.0.0.0", "", "10.0.0.1", "127.0.0.1.evil.com", "evil.com", "128.0.0.1", "127.0.0.256"] {
      #expect(!ConsoleGuard.isLoopback(host), "\(host)")
    }
    #expect(ConsoleGuard.hostWithoutPort("127.0.0.1:9099") == "127.0.0.1")
    #expect(ConsoleGuard.hostWithoutPort("[::1]:9099") == "[::1]")
    #expect(ConsoleGuard.hostWithoutPort("localhost") == "localhost")
  }

  static func request(
    _ method: String, _ uri: String, host: String = "127.0.0.1:9099", form: String = "",
    headers: [(String, String)] = []
  ) -> ServerRequest {
    var all: [(name: String, value: String)] = [("Host", host)]
    for (name, value) in headers { all.append((name, value)) }
    return ServerRequest(method: method, uri: uri, headers: all, body: Array(form.utf8))
  }

  @Test("a POST needs the token and, when it says where it comes from, the console's origin")
  func postChecks() {
    let token = "t0ken"
    func refused(_ request: ServerRequest, bind: String = "127.0.0.1") -> Int? {
      ConsoleGuard.refusal(request, bindHost: bind, token: token)?.status
    }
    #expect(refused(Self.request("GET", "/_/")) == nil)
    #expect(refused(Self.request("POST", "/_/faults/clear")) == 403)
    #expect(refused(Self.request("POST", "/_/faults/clear", form: "token=wrong")) == 403)
    #expect(refused(Self.request("POST", "/_/faults/clear", form: "token=t0ke")) == 403)
    #expect(refused(Self.request("POST", "/_/faults/clear", form: "token=t0ken")) == nil)
    let same = [("Origin", "http://127.0.0.1:9099"), ("Sec-Fetch-Site", "same-origin")]
    #expect(refused(Self.request("POST", "/_/faults/clear", form: "token=t0ken", headers: same)) == nil)
    for origin in ["http://evil.example", "null", "http://127.0.0.1:9100", "https://127.0.0.1:9099"] {
      let request = Self.request("POST", "/_/faults/clear", form: "token=t0ken", headers: [("Origin", origin)])
      #expect(refused(request) == 403, "\(origin)")
    }
    let crossSite = Self.request("POST", "/_/x", form: "token=t0ken", headers: [("Sec-Fetch-Site", "cross-site")])
    #expect(refused(crossSite) == 403)
    // DNS rebinding: a page on another name that resolves to 127.0.0.1 sends its own Host.
    #expect(refused(Self.request("GET", "/_/", host: "evil.example:9099")) == 403)
    // Listening beyond loopback: no console at all.
    #expect(refused(Self.request("GET", "/_/"), bind: "0.0.0.0") == 403)
  }

  @Test("every page carries a strict Content-Security-Policy and no inline script")
  func headers() async throws {
    let emu = try TestEmulator()
    let response = await emu.emulator.handle(Self.request("GET", "/_/"))
    #expect(response.status == 200)
    let csp = response.headers.first { $0.name == "Content-Security-Policy" }?.value ?? ""
    #expect(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"))
    #expect(!csp.contains("unsafe-inline"))
    let html = String(decoding: response.body, as: UTF8.self)
    #expect(html.contains(#"<script src="/_/console.js" defer></script>"#))
    #expect(!html.contains("<script>") && !html.contains(" style=\""))
    let redirect = await emu.emulator.handle(Self.request("GET", "/_"))
    #expect(redirect.status == 303)
  }
}
