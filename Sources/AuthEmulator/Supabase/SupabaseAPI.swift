import HTTPServerKit

/// The GoTrue side, served under `/auth/v1`. (Stub: replaced by the Supabase implementation.)
public final class SupabaseAPI: EmulatorAPI {
  public init(config: EmulatorConfig, clock: any EmulatorClock, outbox: Outbox, store: any DocumentStore) throws {}
  public func handle(_ request: ServerRequest) async -> ServerResponse? {
    request.path == "/auth/v1/health"
      ? .text(200, #"{"version":"v2.196.0","name":"GoTrue","description":"GoTrue is a user registration and authentication API"}"#, contentType: "application/json")
      : nil
  }
}
