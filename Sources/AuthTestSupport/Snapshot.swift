import Foundation
import Testing

/// Golden files next to the test: `Snapshots/<name>.<ext>` beside `file`. Records only with
/// `AUTHSH_RECORD=1`; otherwise returns a line diff when the text differs, and a failure when
/// the file is missing (a renamed or new golden test must not pass on a fresh clone by writing
/// its own expectation).
package enum Snapshot {
  package static func check(_ actual: String, named name: String, ext: String = "txt", file: String = #filePath)
    -> String?
  {
    let directory = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let url = directory.appendingPathComponent("\(name).\(ext)")
    let record = ProcessInfo.processInfo.environment["AUTHSH_RECORD"] == "1"
    if record {
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try? actual.write(to: url, atomically: true, encoding: .utf8)
      return nil
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      return "snapshot \(url.lastPathComponent) is missing beside the test (AUTHSH_RECORD=1 records it)"
    }
    return expected == actual ? nil : diff(expected: expected, actual: actual, name: url.lastPathComponent)
  }

  package static func diff(expected: String, actual: String, name: String) -> String {
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var lines = ["snapshot \(name) differs (AUTHSH_RECORD=1 re-records):"]
    for index in 0..<max(e.count, a.count) {
      let left = index < e.count ? String(e[index]) : "<none>"
      let right = index < a.count ? String(a[index]) : "<none>"
      if left != right { lines.append("  line \(index + 1):\n    - \(left)\n    + \(right)") }
    }
    return lines.joined(separator: "\n")
  }
}

/// Reads `Fixtures/<path>` beside the calling test file. A missing fixture fails the test that
/// asked for it (and reads as empty), rather than serving a made-up body.
package enum Fixture {
  package static func text(_ path: String, file: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation)
    -> String
  {
    let url = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Fixtures")
      .appendingPathComponent(path)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record("fixture \(path) is missing (looked for \(url.path))", sourceLocation: sourceLocation)
      return ""
    }
    return text
  }
}
