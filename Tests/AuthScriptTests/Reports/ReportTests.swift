import AuthCore
import Foundation
import FoundationXML
import JSONKit
import Testing

@testable import AuthScript

@Suite struct ReportTests {
  static let script = """
    secret pw = "s3cret-value-9"
    let email = "r@example.com"
    test "passes & <ok>"
    signup {{email}} --password {{pw}}
    capture token = session.access_token
    test "fails # here"
    whoami
    assert session.access_token == "not-the-token"
    test "backend down"
    login x@down.test --password "literal-pass-7"
    """

  func runWithReports(failFast: Bool = false) async throws -> (
    RunHarness.Outcome, junit: String, tap: String, json: String, harness: RunHarness
  ) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-reports-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var harness = RunHarness(["r.auth": Self.script, "bad.auth": "test \"x\"\necho ok\n"])
    harness.options.reportJUnit = directory.appendingPathComponent("junit.xml").path
    harness.options.reportTAP = directory.appendingPathComponent("tap.txt").path
    harness.options.reportJSON = directory.appendingPathComponent("report.json").path
    harness.options.failFast = failFast
    let outcome = await harness.run(["r.auth", "bad.auth"])
    let read = { (name: String) in try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) }
    return (outcome, try read("junit.xml"), try read("tap.txt"), try read("report.json"), harness)
  }

  @Test func junitHasSuitesCasesCountsAndTimes() async throws {
    let (outcome, junit, _, _, _) = try await runWithReports()
    #expect(outcome.exit == 3)
    let document = try XMLDocument(xmlString: junit, options: [])
    let root = try #require(document.rootElement())
    #expect(root.name == "testsuites")
    #expect(root.attribute(forName: "tests")?.stringValue == "4")
    #expect(root.attribute(forName: "failures")?.stringValue == "1")
    #expect(root.attribute(forName: "errors")?.stringValue == "1")
    let suites = root.elements(forName: "testsuite")
    #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["r.auth", "bad.auth"])
    let cases = suites[0].elements(forName: "testcase")
    #expect(
      cases.map { $0.attribute(forName: "name")?.stringValue } == ["passes & <ok>", "fails # here", "backend down"])
    for element in cases {
      let time = try #require(element.attribute(forName: "time")?.stringValue)
      #expect(Double(time) != nil)
    }
    let failure = try #require(cases[1].elements(forName: "failure").first)
    #expect(failure.attribute(forName: "message")?.stringValue == "assertion failed")
    #expect(failure.stringValue?.contains("actual:   string <***>") == true)
    #expect(cases[2].elements(forName: "error").count == 1)
  }

  @Test func tapVersion13Parses() async throws {
    let (_, _, tap, _, _) = try await runWithReports(failFast: true)
    let parsed = try TAP13.parse(tap)
    #expect(parsed.plan == 4)
    #expect(parsed.points.map(\.ok) == [true, false, true, true])
    #expect(parsed.points.map(\.directive) == [nil, nil, "SKIP stopped by --fail-fast", "SKIP stopped by --fail-fast"])
    #expect(parsed.points[1].description == "r.auth: fails \\# here")
    #expect(parsed.points[1].yaml["message"] == "\"assertion failed\"")
  }

  @Test func jsonReportIsVersioned() async throws {
    let (_, _, _, json, _) = try await runWithReports()
    let report = try JSON.parse(json)
    #expect(report["version"]?.int == 1)
    #expect(report["summary"]?["exit_code"]?.int == 3)
    #expect(report["files"]?[0]?["tests"]?[1]?["failure"]?["kind"]?.string == "assertion")
  }

  @Test func secretsPasswordsAndTokensAppearNowhere() async throws {
    let (outcome, junit, tap, json, _) = try await runWithReports()
    let token = "eyJhbGciOiJIUzI1NiJ9"
    for text in [outcome.out, outcome.err, junit, tap, json] {
      #expect(!text.contains("s3cret-value-9"))
      #expect(!text.contains("literal-pass-7"))
      #expect(!text.contains(token))
    }
    #expect(outcome.err.contains("--password \"***\""))
  }
}

/// A small TAP 13 reader: version line, plan, test points with directives, YAML blocks.
enum TAP13 {
  struct Point {
    var ok: Bool
    var number: Int
    var description: String
    var directive: String?
    var yaml: [String: String] = [:]
  }

  struct Failure: Error { var line: String }

  static func parse(_ text: String) throws -> (plan: Int, points: [Point]) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
    guard lines.popFirst() == "TAP version 13" else { throw Failure(line: "version") }
    guard let planLine = lines.popFirst(), planLine.hasPrefix("1.."), let plan = Int(planLine.dropFirst(3)) else {
      throw Failure(line: "plan")
    }
    var points: [Point] = []
    while let line = lines.popFirst() {
      if line.isEmpty { continue }
      if line == "  ---" {
        guard !points.isEmpty else { throw Failure(line: line) }
        while let inner = lines.popFirst(), inner != "  ..." {
          guard inner.hasPrefix("  ") else { throw Failure(line: inner) }
          if !inner.hasPrefix("    "), let colon = inner.firstIndex(of: ":") {
            let key = inner.dropFirst(2)[..<colon].trimmingCharacters(in: .whitespaces)
            points[points.count - 1].yaml[key] = inner[inner.index(after: colon)...].trimmingCharacters(
              in: .whitespaces)
          }
        }
        continue
      }
      let ok = line.hasPrefix("ok ")
      guard ok || line.hasPrefix("not ok ") else { throw Failure(line: line) }
      let rest = line.dropFirst(ok ? 3 : 7)
      let number = Int(rest.prefix { $0.isNumber }) ?? -1
      guard number == points.count + 1 else { throw Failure(line: line) }
      var body = String(rest.drop { $0.isNumber }.dropFirst(3))
      var directive: String?
      if let range = body.range(of: " # ") {
        directive = String(body[range.upperBound...])
        body = String(body[..<range.lowerBound])
      }
      points.append(Point(ok: ok, number: number, description: body, directive: directive))
    }
    guard points.count == plan else { throw Failure(line: "count \(points.count) != \(plan)") }
    return (plan, points)
  }
}
