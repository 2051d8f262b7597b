import Essentials
import HTTPServerKit
import JSONKit

/// What every Identity Toolkit route group shares: the configuration, the clock, the outbox, the
/// state, the mode and the helpers more than one group uses (tokens, ID-token checks, tenants,
/// quotas, mailed codes). One per emulator, owned by `FirebaseAPI` and handed to each group.
final class FirebaseContext: Sendable {
  let config: EmulatorConfig
  let clock: any EmulatorClock
  let outbox: Outbox
  let state: FirebaseState
  let mode: EmulatorMode

  init(config: EmulatorConfig, clock: any EmulatorClock, outbox: Outbox, state: FirebaseState, mode: EmulatorMode) {
    self.config = config
    self.clock = clock
    self.outbox = outbox
    self.state = state
    self.mode = mode
  }

  var now: Date { clock.now() }

  /// `http://<Host>` of the request, for action links.
  func emulatorOrigin(_ request: ServerRequest) -> String {
    "http://" + (request.header("Host") ?? "\(config.host):\(config.port)")
  }

  /// The stored form of a new password: Firebase's modified scrypt with the project's hash config
  /// (`$fbscrypt$…`, the string GoTrue takes), when it is long enough to be accepted. Slow: call
  /// it outside the state lock, so that hashing never blocks other requests.
  func preHash(_ password: String?, projectId: String) -> String? {
    guard let password, FirebaseRules.isStrongEnough(password) else { return nil }
    return Self.nativeHash(password, config: state.hashConfig(projectId))
  }

  static func nativeHash(_ password: String, config: FirebaseScryptParameters) -> String? {
    config.newHash(password).map { FirebaseScryptHash(parameters: config, salt: $0.salt, hash: $0.hash).encoded }
  }
}
