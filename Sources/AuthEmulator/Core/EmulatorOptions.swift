/// What `authsh emulator` was asked for: the configuration, what it prints once it listens and
/// the accounts to create at start. The executable fills it from the command table's flags.
package struct EmulatorOptions: Sendable {
  package var config: EmulatorConfig
  /// What is printed once it listens: the banner, `KEY=VALUE` lines (`--print-env`) or one JSON
  /// line (`--json`), for CI jobs that start it with `--port 0`.
  package var ready: ReadyFormat
  /// `--seed FILE`: accounts to create at start (read and checked by `EmulatorSeed.load`).
  package var seedPath: String?

  package enum ReadyFormat: Sendable, Equatable { case banner, env, json }

  package init(config: EmulatorConfig = EmulatorConfig(), ready: ReadyFormat = .banner, seedPath: String? = nil) {
    self.config = config
    self.ready = ready
    self.seedPath = seedPath
  }
}
