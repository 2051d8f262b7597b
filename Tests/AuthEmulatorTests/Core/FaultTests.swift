import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("faults")
struct FaultTests {
  @Test(
    "--fault specs",
    arguments: [
      ("POST /auth/v1/token 429", EmulatorFault(method: "POST", path: "/auth/v1/token", times: 1, status: 429)),
      ("post /auth/v1/token 429x3", EmulatorFault(method: "POST", path: "/auth/v1/token", times: 3, status: 429)),
      ("* /auth/v1/user html502", EmulatorFault(path: "/auth/v1/user", preset: .html502)),
      ("ANY /x dropx0", EmulatorFault(path: "/x", times: 0, preset: .drop)),
      ("GET /y truncated_jsonx2", EmulatorFault(method: "GET", path: "/y", times: 2, preset: .truncatedJSON)),
    ])
  func parseSpec(spec: String, fault: EmulatorFault) throws {
    #expect(try EmulatorFault.parse(spec: spec) == fault)
  }

  @Test(
    "bad --fault specs",
    arguments: ["POST /x", "POST x 429", "POST /x teapot", "POST /x 999", "P0ST /x 429", "a b c d"])
  func badSpec(spec: String) {
    #expect(throws: EmulatorFaultError.self) { try EmulatorFault.parse(spec: spec) }
  }

  @Test("JSON form round trip and validation")
  func jsonForm() throws {
    let json: JSON = [
      "method": "POST", "path": "/auth/v1/token", "times": 2, "latency_ms": 5, "status": 429,
      "headers": ["Retry-After": "30"], "json": ["a": 1], "preset": "rate_limit",
    ]
    let fault = try EmulatorFault(json: json)
    #expect(fault.headers == [.init(name: "Retry-After", value: "30")])
    #expect(try EmulatorFault(json: fault.jsonValue) == fault)
    #expect(throws: EmulatorFaultError.self) { try EmulatorFault(json: ["preset": "nope"]) }
    #expect(throws: EmulatorFaultError.self) { try EmulatorFault(json: ["times": -1]) }
    #expect(throws: EmulatorFaultError.self) { try EmulatorFault(json: ["stauts": 500]) }
  }

  @Test("PUT/POST/GET/DELETE /emulator/v1/faults, counting and presets through handle")
  func controlAndInjection() async throws {
    let emu = try TestEmulator()
    let put = await emu.send(
      "PUT", "/emulator/v1/faults",
      json: [
        "faults": [["method": "GET", "path": "/auth/v1/health", "times": 2, "status": 503, "body": "down"]]
      ])
    #expect(put.status == 200)
    let first = await emu.send("GET", "health")
    #expect(first.status == 503)
    #expect(first.text == "down")
    #expect(await emu.send("GET", "/emulator/v1/faults").json["faults"]?[0]?["times"] == 1)
    #expect(await emu.send("GET", "health").status == 503)
    #expect(await emu.send("GET", "health").status == 200)
    #expect(await emu.send("GET", "/emulator/v1/faults").json == ["faults": []])

    _ = await emu.send(
      "POST", "/emulator/v1/faults", json: ["path": "/auth/v1/token", "preset": "rate_limit", "times": 0])
    for _ in 0..<3 {
      let limited = await emu.signIn("x@example.com")
      #expect(limited.status == 429)
      #expect(limited.json == ["code": "over_request_rate_limit", "message": "Request rate limit reached"])
    }
    #expect(await emu.send("DELETE", "/emulator/v1/faults").json == ["faults": []])
    #expect(await emu.signIn("x@example.com").status == 400)

    _ = await emu.send(
      "POST", "/emulator/v1/faults",
      json: [
        "faults": [
          ["path": "/auth/v1/health", "preset": "drop"], ["path": "/auth/v1/health", "preset": "html502"],
          ["path": "/auth/v1/health", "preset": "truncated_json"],
          ["path": "/auth/v1/health", "preset": "server_error"],
          ["path": "/auth/v1/health", "headers": ["X-Extra": "1"]],
        ]
      ])
    let dropped = await emu.emulator.handle(ServerRequestFactory.make("GET", "/auth/v1/health"))
    #expect(dropped.drop)
    let html = await emu.send("GET", "health")
    #expect(html.status == 502)
    #expect(html.header("Content-Type") == "text/html")
    #expect(html.text.contains("502 Bad Gateway"))
    let truncated = await emu.send("GET", "health")
    #expect(truncated.status == 200)
    #expect(truncated.header("Content-Type") == "application/json")
    #expect((try? JSON.parse(bytes: truncated.body)) == nil)
    let server = await emu.send("GET", "health", dated: false)
    #expect(server.status == 500)
    #expect(server.json["error_code"] == "unexpected_failure")
    let decorated = await emu.send("GET", "health")
    #expect(decorated.status == 200)
    #expect(decorated.header("X-Extra") == "1")
    #expect(await emu.send("PUT", "/emulator/v1/faults", json: ["faults": [["preset": "bogus"]]]).status == 400)
  }

  @Test("latency is applied, then the request is served normally")
  func latency() async throws {
    let emu = try TestEmulator { $0.faults = [EmulatorFault(path: "/auth/v1/health", latencyMs: 50)] }
    let clock = ContinuousClock()
    let start = clock.now
    let response = await emu.send("GET", "health")
    #expect(response.status == 200)
    #expect(clock.now - start >= .milliseconds(50))
  }
}
