import AuthCore

/// Makes the provider for a target.
package enum ProviderFactory {
  package static func make(
    _ target: Target, transport: any HTTPTransport, clock: any Clock = SystemClock(),
    trace: (@Sendable (String) -> Void)? = nil, secrets: (@Sendable (String) -> Void)? = nil
  ) -> any AuthProvider {
    switch target.provider {
    case .supabase:
      return SupabaseProvider(target: target, transport: transport, clock: clock, trace: trace, secrets: secrets)
    case .firebase:
      return FirebaseProvider(target: target, transport: transport, clock: clock, trace: trace, secrets: secrets)
    }
  }
}
