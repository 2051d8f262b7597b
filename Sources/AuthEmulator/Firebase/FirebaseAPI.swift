import HTTPServerKit

/// The Identity Toolkit + Secure Token side. (Stub: replaced by the Firebase implementation.)
public final class FirebaseAPI: EmulatorAPI {
  public init(config: EmulatorConfig, clock: any EmulatorClock, outbox: Outbox, store: any DocumentStore) throws {}
  public func handle(_ request: ServerRequest) async -> ServerResponse? { nil }
}
