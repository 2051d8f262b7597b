import HTTPServerKit

/// The new-style API keys (`sb_publishable_…`, `sb_secret_…`). On Supabase they are checked by the
/// API gateway, not by GoTrue: a request whose `apikey` is a secret key and that carries no
/// `Authorization` header reaches GoTrue with a service_role JWT (a publishable key: an anon one).
/// A secret key sent as `Authorization: Bearer` is not a JWT, so GoTrue answers 403 `bad_jwt`.
/// The emulator's pair is the fixed one the Supabase CLI prints for a local stack.
package enum SupabaseAPIKeys {
  package static let publishable = "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH"
  package static let secret = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"

  enum Grant { case none, anon, serviceRole }

  /// What the gateway would put in front of GoTrue for this request's `apikey`: `.none` when
  /// an `Authorization` header is present or the key is not an `sb_` key; 401 for an unknown one.
  static func grant(_ request: ServerRequest) throws -> Grant {
    guard request.header("Authorization") == nil, let key = request.header("apikey"), key.hasPrefix("sb_") else {
      return .none
    }
    switch key {
    case secret: return .serviceRole
    case publishable: return .anon
    default: throw GoTrueError(status: 401, code: "no_authorization", message: "Invalid API key")
    }
  }
}
