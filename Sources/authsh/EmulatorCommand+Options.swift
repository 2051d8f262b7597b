import AuthEmulator
import ShellKit

extension EmulatorCommand {
  /// The emulator's options from its row's flags, each checked and decoded when the line was
  /// parsed (bounds, `--fault`, `--team`); what only two flags together tell is refused here.
  static func options(_ invocation: Invocation) -> Result<EmulatorOptions, UsageError> {
    if invocation[.printEnv] && invocation[.readyJSON] {
      return .failure(UsageError("give --print-env or --json, not both"))
    }
    var config = EmulatorConfig()
    if let host = invocation[.emulatorHost] { config.host = host }
    if let port = invocation[.emulatorPort] { config.port = port }
    if let project = invocation[.project] { config.project = project }
    if let state = invocation[.state] { config.statePath = state }
    if let secret = invocation[.jwtSecret] { config.jwtSecret = secret }
    if let latency = invocation[.latency] { config.latencyMs = latency }
    if let cost = invocation[.bcryptCost] { config.bcryptCost = cost }
    if let interval = invocation[.refreshReuseInterval] { config.refreshReuseInterval = interval }
    if let seconds = invocation[.mailFrequency] { config.mailFrequencySeconds = seconds }
    if let perMinute = invocation[.mfaRateLimit] { config.mfaRateLimit = Double(perMinute) }
    if let seconds = invocation[.idleTimeout] { config.idleTimeout = seconds }
    if let seconds = invocation[.sessionTimebox] { config.sessionTimebox = seconds }
    if let seconds = invocation[.sessionInactivityTimeout] { config.sessionInactivityTimeout = seconds }
    // The row's choices are EmulatorSMTP's raw values (a test checks it).
    if let smtp = invocation[.smtp].flatMap(EmulatorSMTP.init(rawValue:)) { config.smtp = smtp }
    config.team += invocation.all(.team).flatMap { $0 }
    config.faults += invocation.all(.fault)
    if invocation[.confirmEmail] { config.confirmEmail = true }
    if invocation[.emailPrivacy] { config.emailPrivacy = true }
    if invocation[.emulatorLikeProduction] { config.likeProduction = true }
    if invocation[.anonymousSignIns] { config.anonymousSignIns = true }
    if invocation[.captcha] { config.captcha = true }
    let ready: EmulatorOptions.ReadyFormat = invocation[.printEnv] ? .env : invocation[.readyJSON] ? .json : .banner
    return .success(EmulatorOptions(config: config, ready: ready, seedPath: invocation[.seed]))
  }
}
