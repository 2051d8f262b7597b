import AuthTestSupport
import Foundation

/// Runs the built `authsh` (found from the package root, or `AUTHSH_BIN`) in a directory, with a
/// fresh HOME so no user configuration or session leaks into a golden run.
enum AuthshProcess {
  struct Outcome {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let packageRoot: URL = {
    var root = URL(fileURLWithPath: #filePath)
    while root.path != "/", !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
      root.deleteLastPathComponent()
    }
    return root
  }()

  static var binary: URL {
    ProcessInfo.processInfo.environment["AUTHSH_BIN"].map(URL.init(fileURLWithPath:))
      ?? packageRoot.appendingPathComponent(".build/debug/authsh")
  }

  static func run(
    _ arguments: [String], in directory: URL, environment extra: [String: String] = [:], timeout: TimeInterval = 120
  ) throws -> Outcome {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-golden-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let environment = [
      "HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
      "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
      "XDG_STATE_HOME": home.appendingPathComponent("state").path,
    ].merging(extra) { $1 }
    let done = try ProgramRunner.run(
      binary.path, arguments, environment: environment, directory: directory.path, timeout: timeout)
    return Outcome(status: done.status, stdout: done.stdout, stderr: done.stderr)
  }
}
