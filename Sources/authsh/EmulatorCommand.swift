import AuthEmulator
import Foundation
import ShellKit

/// `authsh emulator …`: serve both backends until interrupted.
enum EmulatorCommand {
  static func run(_ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    let words = arguments.command.enumerated().map { Word(text: $1, start: $0, end: $0 + 1) }
    let invocation: Invocation
    switch InvocationParser.parse(words, surface: .oneShot) {
    case .success(let parsed): invocation = parsed
    case .failure(let problem): return Authsh.usage(problem, command: "emulator", sink: sink)
    }
    var config = EmulatorConfig()
    if let host = invocation.value("--host") { config.host = host }
    if let project = invocation.value("--project") { config.project = project }
    if let secret = invocation.value("--jwt-secret") { config.jwtSecret = secret }
    if let state = invocation.value("--state") { config.statePath = state }
    config.confirmEmail = invocation.has("--confirm-email")
    config.emailPrivacy = invocation.has("--email-privacy")
    for (flag, apply) in numericFlags {
      guard let text = invocation.value(flag) else { continue }
      guard let number = Int(text), number >= 0 else {
        return Authsh.usage(UsageError("\(flag) takes a whole number, not '\(text)'"), command: "emulator", sink: sink)
      }
      apply(&config, number)
    }
    do {
      let emulator = try Emulator(config: config)
      try await emulator.start()
      sink.out("authsh emulator listening on \(emulator.baseURL)\n")
      await emulator.waitUntilClosed()
      return 0
    } catch {
      sink.err("error: could not start the emulator on \(config.host):\(config.port): \(error)\n")
      return 1
    }
  }

  static let numericFlags: [(String, @Sendable (inout EmulatorConfig, Int) -> Void)] = [
    ("--port", { $0.port = $1 }),
    ("--bcrypt-cost", { $0.bcryptCost = $1 }),
    ("--refresh-reuse-interval", { $0.refreshReuseInterval = $1 }),
  ]
}
