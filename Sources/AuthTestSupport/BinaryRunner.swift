import Foundation

/// Runs the built `authsh` binary (found from the package root) with an environment and stdin.
public struct BinaryRunner: Sendable {
  public struct Outcome: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Killed by a signal (then `status` is the signal's number), e.g. a trap (SIGILL).
    public var signaled = false
    public var combined: String { stdout + stderr }
  }

  /// Where the child's standard output goes.
  public enum StandardOutput: Sendable {
    /// A pipe read into `Outcome.stdout`.
    case captured
    /// `/dev/full`: every write fails with ENOSPC.
    case deviceFull
    /// Descriptor 1 closed (`>&-`).
    case closed
    /// A pipe whose reading end is already closed (the reader went away, as `| head -1`).
    case brokenPipe
  }

  public let executable: URL
  public var environment: [String: String]

  /// A runner with a fresh HOME, config and state directories under a new temp directory.
  public init(file: String = #filePath) throws {
    var root = URL(fileURLWithPath: file)
    while root.path != "/" && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
      root.deleteLastPathComponent()
    }
    let bin = ProcessInfo.processInfo.environment["AUTHSH_BIN"].map(URL.init(fileURLWithPath:))
      ?? root.appendingPathComponent(".build/debug/authsh")
    executable = bin
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    environment = [
      "HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
      "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LANG": "C.UTF-8",
    ]
  }

  public var home: String { environment["HOME"] ?? "/tmp" }

  /// Runs `authsh args…`, feeding `stdin` (closed when nil), with a hard timeout. The blocking
  /// wait happens on a dispatch thread, so an in-process server on the cooperative pool keeps
  /// answering.
  public func run(
    _ args: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:], timeout: TimeInterval = 60,
    stdout: StandardOutput = .captured
  ) async throws -> Outcome {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result {
          try self.runBlocking(args, stdin: stdin, extraEnvironment: extraEnvironment, timeout: timeout, stdout: stdout)
        })
      }
    }
  }

  public func runBlocking(
    _ args: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:], timeout: TimeInterval = 60,
    stdout: StandardOutput = .captured
  ) throws -> Outcome {
    let process = Process()
    switch stdout {
    case .captured, .brokenPipe:
      process.executableURL = executable
      process.arguments = args
    case .deviceFull, .closed:
      // The shell sets up descriptor 1, then becomes authsh (`exec`).
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", #"exec "$0" "$@" "# + (stdout == .closed ? ">&-" : ">/dev/full"), executable.path] + args
    }
    process.environment = environment.merging(extraEnvironment) { $1 }
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    if stdout == .brokenPipe { try output.fileHandleForReading.close() }
    try process.run()
    // The throwing write: a child that exits without reading its input must not trap the tests.
    if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    let outData = LockedData()
    let errData = LockedData()
    let group = DispatchGroup()
    for (pipe, sink) in stdout == .brokenPipe ? [(error, errData)] : [(output, outData), (error, errData)] {
      group.enter()
      DispatchQueue.global().async {
        sink.set((try? pipe.fileHandleForReading.readToEnd()) ?? Data())
        group.leave()
      }
    }
    if group.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      group.wait()
    }
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, stdout: String(decoding: outData.get(), as: UTF8.self),
      stderr: String(decoding: errData.get(), as: UTF8.self), signaled: process.terminationReason == .uncaughtSignal)
  }
}

private final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  func set(_ value: Data) {
    lock.lock()
    data = value
    lock.unlock()
  }
  func get() -> Data {
    lock.lock()
    defer { lock.unlock() }
    return data
  }
}
