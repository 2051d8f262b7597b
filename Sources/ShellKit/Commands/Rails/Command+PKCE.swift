import AuthCore

/// PKCE (`flow = "pkce"` in a Supabase profile): `reset` and `login --link` send a challenge, so
/// the mailed link comes back to the app with `?code=`; authsh trades that code with the
/// verifier it kept (a reset's in the profile's 0600 state, a `login --link`'s in memory).
extension Command {
  /// A fresh pair when the profile runs PKCE, else nil.
  static func pkcePair(for target: Target) -> PKCEPair? {
    target.provider == .supabase && target.pkce ? PKCEPair.generate() : nil
  }
}
