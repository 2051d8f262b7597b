import AuthCore
import JSONKit

/// How the admin credential is sent, and what GoTrue's refusals of it mean.
enum SupabaseAdminErrors {
  /// A service_role JWT goes as `apikey` and bearer; a secret key `sb_secret_…` as `apikey` only
  /// (the platform's gateway turns it into a JWT; sent as a bearer, GoTrue answers `bad_jwt`).
  static func headers(_ credential: AdminCredential) -> [(String, String)] {
    switch credential {
    case .supabaseServiceRole(let key): return [("apikey", key), ("Authorization", "Bearer " + key)]
    case .supabaseSecretKey(let key): return [("apikey", key)]
    case .firebaseServiceAccount, .firebaseAuthorizedUser, .firebaseImpersonated, .firebaseEmulatorOwner: return []
    }
  }

  /// Codes with which GoTrue (or the platform's gateway) refuses the key itself.
  static let credentialCodes: Set<String> = [
    "no_authorization", "bad_jwt", "not_admin", "invalid_api_key", "session_not_found", "session_expired",
  ]

  static func error(from response: HTTPResponse, credential: AdminCredential) -> AuthError {
    let json = try? JSON.parse(bytes: response.body)
    let code = json.flatMap(GoTrueErrorMapping.code(of:))
    let message = json.flatMap { $0["msg"]?.string ?? $0["message"]?.string ?? $0["error_description"]?.string } ?? ""
    let lower = message.lowercased()
    let refusedKey =
      response.status == 401 || code.map(credentialCodes.contains) == true
      || (response.status == 403 && lower.contains("user not allowed")) || lower.contains("invalid api key")
      || lower.hasPrefix("invalid jwt") || lower.contains("requires a valid bearer token")
    if refusedKey, response.status < 500 {
      return keyRefused(credential, status: response.status, code: code, message: message)
    }
    if code == "user_not_found" {
      return AuthError(.userNotFound, message: "No such account.", providerCode: code, status: response.status)
    }
    var mapped = GoTrueErrorMapping.error(from: response, call: .other)
    if mapped.code == .providerError, code == "validation_failed" || code == "bad_json" {
      mapped.code = .invalidRequest
    }
    return mapped
  }

  static func keyRefused(_ credential: AdminCredential, status: Int, code: String?, message: String) -> AuthError {
    let said = message.isEmpty ? "" : " (\(message))"
    var text: String
    var hint: String
    switch credential {
    case .supabaseSecretKey:
      text = "The Supabase secret key was refused\(said)."
      hint =
        "Admin commands send the project's secret key (sb_secret_…, Project Settings → API Keys) from "
        + "SUPABASE_SECRET_KEY, or the profile's service_key_env / service_key. A publishable key cannot be used."
    default:
      let role = credential.serviceRoleClaim
      if code == "not_admin" || role == "anon" || role == "authenticated" {
        text =
          "The key given as the Supabase service_role key is not an admin key"
          + (role.map { ": its role is \($0)" } ?? "") + "\(said). It looks like the anon key or a user's token."
      } else {
        text = "The Supabase service_role key was refused\(said)."
      }
      hint =
        "Admin commands send the project's service_role key (Project Settings → API Keys; `supabase status` "
        + "prints it for a local stack) from SUPABASE_SERVICE_ROLE_KEY, or the profile's service_key_env / "
        + "service_key. It must be the key of this project, signed with its JWT secret."
    }
    return AuthError(.configError, message: text, providerCode: code ?? "invalid_api_key", status: status, hint: hint)
  }
}

extension AdminCredential {
  /// The `role` claim of a service_role JWT (nil for anything else or an unreadable token).
  var serviceRoleClaim: String? {
    guard case .supabaseServiceRole(let key) = self else { return nil }
    return JWTClaims.decode(key)?["role"]?.string
  }
}
