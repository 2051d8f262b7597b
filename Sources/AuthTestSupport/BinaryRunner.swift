import Foundation

/// Runs the built `authsh` binary (found from the package root) with an environment and stdin.
public struct BinaryRunner: Sendable {
  public struct Outcome: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var combined: String { stdout + stderr }
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
  public func run(_ args: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:], timeout: TimeInterval = 60) async throws -> Outcome {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try self.runBlocking(args, stdin: stdin, extraEnvironment: extraEnvironment, timeout: timeout) })
      }
    }
  }

  public func runBlocking(_ args: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Outcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = args
    process.environment = environment.merging(extraEnvironment) { $1 }
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    let outData = LockedData()
    let errData = LockedData()
    let group = DispatchGroup()
    for (pipe, sink) in [(output, outData), (error, errData)] {
      group.enter()
      DispatchQueue.global().async {
        sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
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
      stderr: String(decoding: errData.get(), as: UTF8.self))
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
