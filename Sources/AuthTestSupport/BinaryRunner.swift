import Foundation

/// Runs the built `authsh` binary (found from the package root) with an environment and stdin.
package struct BinaryRunner: Sendable {
  package struct Outcome: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    /// Killed by a signal (then `status` is the signal's number), e.g. a trap (SIGILL).
    package var signaled = false
    package var combined: String { stdout + stderr }
  }

  /// Where the child's standard output goes.
  package enum StandardOutput: Sendable {
    /// A pipe read into `Outcome.stdout`.
    case captured
    /// `/dev/full`: every write fails with ENOSPC.
    case deviceFull
    /// Descriptor 1 closed (`>&-`).
    case closed
    /// A pipe whose reading end is already closed (the reader went away, as `| head -1`).
    case brokenPipe
  }

  package let executable: URL
  package var environment: [String: String]
  /// The directory of Package.swift (the README and docs/, the examples).
  package let packageRoot: String

  /// A runner with a fresh HOME, config and state directories under a new temp directory.
  package init(file: String = #filePath) throws {
    FileDescriptorLimit.raiseSoftLimit()
    var root = URL(fileURLWithPath: file)
    while root.path != "/" && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    {
      root.deleteLastPathComponent()
    }
    packageRoot = root.path
    let bin =
      ProcessInfo.processInfo.environment["AUTHSH_BIN"].map(URL.init(fileURLWithPath:))
      ?? root.appendingPathComponent(".build/debug/authsh")
    executable = bin
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    environment = [
      "HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
      "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LANG": "C.UTF-8",
      // Sessions in the 0600 file: the same output with or without a keyring on the machine, and
      // a developer's own keyring is never touched. The keyring tests (Tests/python/keyring) run
      // against a private Secret Service; `credentialStoreAuto` tests set "auto" themselves.
      "AUTHSH_CREDENTIAL_STORE": "file",
    ]
  }

  package var home: String { environment["HOME"] ?? "/tmp" }

  /// Runs `authsh args…`, feeding `stdin` (closed when nil), with a hard timeout. The blocking
  /// wait happens on a dispatch thread, so an in-process server on the cooperative pool keeps
  /// answering.
  package func run(
    _ args: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:], timeout: TimeInterval = 60,
    stdout: StandardOutput = .captured
  ) async throws -> Outcome {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result {
            try self.runBlocking(
              args, stdin: stdin, extraEnvironment: extraEnvironment, timeout: timeout, stdout: stdout)
          })
      }
    }
  }

  package func runBlocking(
    _ args: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:], timeout: TimeInterval = 60,
    stdout: StandardOutput = .captured
  ) throws -> Outcome {
    // posix_spawn and poll, not Foundation's Process and FileHandle: under load those trapped on
    // EINTR and crashed reading /proc/self/fd while other tests spawned children.
    let child = try ChildProcess.spawn(
      executable.path, args, environment: environment.merging(extraEnvironment) { $1 }, stdout: stdout)
    let (out, err) = child.communicate(stdin: stdin.map { Array($0.utf8) } ?? [], timeout: timeout)
    let (status, signaled) = child.wait()
    return Outcome(
      status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
      signaled: signaled)
  }
}
