import AuthEmulator
import Foundation
import ShellKit

/// `authsh emulator …`: serve both backends until interrupted. The command table checks the
/// flags (did-you-mean, help, completion); `EmulatorOptions` maps their values to a config.
enum EmulatorCommand {
  static func run(_ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    let words = arguments.command.enumerated().map { Word(text: $1, start: $0, end: $0 + 1) }
    if case .failure(let problem) = InvocationParser.parse(words, surface: .oneShot) {
      return Authsh.usage(problem, command: "emulator", sink: sink)
    }
    let options: EmulatorOptions
    do {
      options = try EmulatorOptions.parse(arguments: Array(arguments.command.dropFirst()))
    } catch {
      return Authsh.usage(UsageError("\(error)"), command: "emulator", sink: sink)
    }
    do {
      let emulator = try Emulator(config: options.config)
      try await emulator.start()
      sink.out(emulator.banner())
      await emulator.waitUntilClosed()
      return 0
    } catch {
      sink.err("error: could not start the emulator on \(options.config.host):\(options.config.port): \(error)\n")
      return 1
    }
  }
}
