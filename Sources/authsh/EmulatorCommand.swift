import AuthCore
import AuthEmulator
import Essentials
import NIOCore
import ShellKit

/// `authsh emulator …`: serve both backends until interrupted. Its flags are its row's in the
/// command table, parsed and decoded once like any command's (did-you-mean, help, completion).
enum EmulatorCommand {
  static func run(_ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    let words = arguments.command.enumerated().map { Word(text: $1, start: $0, end: $0 + 1) }
    let invocation: Invocation
    switch InvocationParser.parse(words, surface: .oneShot) {
    case .failure(let problem):
      return Authsh.usage(problem, command: CommandTable.match(arguments.command)?.spec.name ?? "emulator", sink: sink)
    case .success(let parsed) where parsed.id == .emulatorFaultsClear:
      return await FaultsClearCommand.run(parsed, sink: sink)
    case .success(let parsed): invocation = parsed
    }
    var options: EmulatorOptions
    switch Self.options(invocation) {
    case .failure(let problem): return Authsh.usage(problem, command: invocation.spec.name, sink: sink)
    case .success(let given): options = given
    }
    if arguments.likeProduction { options.config.likeProduction = true }  // `authsh --like-production emulator`
    if options.seedPath == nil { options.seedPath = arguments.seed }  // `authsh --seed FILE emulator`
    do {
      let flags = options.config
      try ConfiguredEmulator.read(environment: environment).apply(to: &options.config, flags: flags)
    } catch let error as AuthError {
      sink.err(HumanRenderer.renderError(error, style: Terminal.style(flag: nil, environment: environment, stream: 2)))
      return ExitStatus.forError(error)
    } catch {
      return ExitStatus.configuration
    }
    // The seed file is read and checked whole before the state is opened: a bad line creates nothing.
    var seedAccounts: [EmulatorSeedAccount]?
    if let seedPath = options.seedPath {
      do {
        seedAccounts = try EmulatorSeed.load(path: seedPath)
      } catch {
        sink.err("error: seed file \(error)\n")
        return ExitStatus.configuration
      }
    }
    let emulator: Emulator
    do {
      emulator = try Emulator(config: options.config)
    } catch let error as StateFileInUseError {
      sink.err("error: \(error)\n")
      return 1
    } catch {
      sink.err("error: could not open the emulator state: \(error)\n")
      return 1
    }
    if let seedAccounts, let seedPath = options.seedPath {
      do {
        try emulator.seed(seedAccounts, from: seedPath)
      } catch {
        await emulator.shutdown()
        sink.err("error: could not store the accounts of \(seedPath): \(error)\n")
        return 1
      }
    }
    let unreadable = emulator.unreadableRowsReport
    if !unreadable.isEmpty {
      let lines = unreadable.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
      sink.err(
        "warning: rows of \(options.config.statePath ?? "the state file") could not be read and were skipped:\n\(lines)\n"
      )
    }
    // SIGTERM / SIGINT: stop serving, checkpoint and close the state file, exit 0 (1 when the state file could not be checkpointed). Installed before
    // the server listens, so that a caller that stops it as soon as it answers (or as soon as the
    // ready line is out) is never ignored. The default action is turned off first, as dispatch
    // signal sources require.
    let stopSignals = [SIGTERM, SIGINT].map { number -> any DispatchSourceSignal in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { Task { await emulator.shutdown() } }
      source.resume()
      return source
    }
    do {
      try await emulator.start()
    } catch {
      stopSignals.forEach { $0.cancel() }
      await emulator.shutdown()
      sink.err(
        "error: could not start the emulator: \(bindProblem(error, host: options.config.host, port: options.config.port))\n"
      )
      return 1
    }
    switch options.ready {
    case .banner: sink.out(emulator.banner())
    case .env: sink.out(emulator.environmentText())
    case .json: sink.out(emulator.readyLine())
    }
    if StandardStreams.hasFailed(1) {
      // Nobody learnt where it listens (with --port 0, nobody can): a job waiting for the ready
      // line would wait for ever. Exit 74 with the reason (standard output's failure).
      stopSignals.forEach { $0.cancel() }
      await emulator.shutdown()
      sink.err("error: the emulator stopped: it could not write where it listens\n")
      return 1
    }
    await emulator.waitUntilClosed()
    await emulator.shutdown()
    stopSignals.forEach { $0.cancel() }
    if let problem = emulator.stateProblemAtStop {
      sink.err("error: the emulator state was not saved cleanly: \(problem)\n")
      return 1
    }
    return 0
  }

  /// Why binding failed, in words (NIO's own text names its internal calls).
  static func bindProblem(_ error: Error, host: String, port: Int) -> String {
    guard let io = error as? IOError else { return "\(error)" }
    switch io.errnoCode {
    case EADDRINUSE: return "port \(port) is in use; try --port 0 (any free port), or stop the other server"
    case EACCES: return "port \(port) needs privileges (ports below 1024); try --port 0 or a port above 1023"
    case EADDRNOTAVAIL: return "\(host) is not an address of this machine; try --host 127.0.0.1"
    default: return "\(host):\(port): " + String(cString: strerror(io.errnoCode))
    }
  }
}
