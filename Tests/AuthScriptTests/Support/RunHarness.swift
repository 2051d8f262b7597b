import AuthCore
import Foundation
import ShellKit

@testable import AuthScript

/// Runs in-memory `.auth` files through `ScriptRunner` against a `FakeBackend`.
struct RunHarness {
  var files: [String: String]
  var options = RunOptionsSeed()
  var environment: [String: String] = ["HOME": "/tmp"]
  let redactor = Redactor()
  let backend = FakeBackend()

  struct RunOptionsSeed {
    var jobs = 1
    var failFast = false
    var variables: [String: String] = [:]
    var reportJUnit: String?
    var reportTAP: String?
    var reportJSON: String?
    var style = Style.plain
  }

  init(_ files: [String: String]) { self.files = files }
  init(_ text: String) { self.files = ["t.auth": text] }

  struct Outcome {
    var exit: Int32
    var out: String
    var err: String
  }

  func run(_ names: [String]? = nil) async -> Outcome {
    let files = self.files
    let sink = CapturingSink()
    let options = RunOptions(
      jobs: self.options.jobs, failFast: self.options.failFast, variables: self.options.variables,
      reportJUnit: self.options.reportJUnit, reportTAP: self.options.reportTAP, reportJSON: self.options.reportJSON,
      style: self.options.style, executor: backend.executor,
      readFile: { path in
        guard let text = files[(path as NSString).lastPathComponent] else { throw CocoaError(.fileNoSuchFile) }
        return text
      })
    let environment = self.environment
    let redactor = self.redactor
    let runner = ScriptRunner(
      options: options, makeContext: { makeTestContext(environment: environment, redactor: redactor) }, output: sink)
    let exit = await runner.run(files: names ?? files.keys.sorted())
    return Outcome(exit: exit, out: sink.standardOutput, err: sink.standardError)
  }
}
