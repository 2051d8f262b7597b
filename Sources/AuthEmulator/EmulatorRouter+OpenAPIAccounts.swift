import JSONKit

/// The OpenAPI entries of the routes for second factors, the audit trail, passwordless and
/// federated sign-in: the emulator-only IdP sign-in, and the product routes they added (same
/// wire as GoTrue and the Identity Toolkit, listed so a reader finds them).
extension EmulatorRouter {
  static let accountRoutes: [(path: String, method: String, summary: String, tag: String)] = [
    (
      "/emulator/v1/supabase/idp", "post",
      "Sign in as a Supabase user of a social provider (emulator only): {\"provider\":\"google\",\"email\",\"sub\"?,\"name\"?,\"email_verified\"?} → the session",
      "emulator"
    ),
    (
      "/auth/v1/factors", "post",
      "Enrol a TOTP factor: {\"factor_type\":\"totp\",\"friendly_name\"} → {id, type, friendly_name, totp:{qr_code, secret, uri}}",
      "supabase"
    ),
    ("/auth/v1/factors/{factorId}/challenge", "post", "Challenge a factor → {id, type, expires_at}", "supabase"),
    ("/auth/v1/factors/{factorId}/verify", "post", "Verify {challenge_id, code} → an aal2 session", "supabase"),
    ("/auth/v1/factors/{factorId}", "delete", "Unenrol (a verified factor needs an aal2 session) → {id}", "supabase"),
    ("/auth/v1/admin/users/{userId}/factors", "get", "A user's factors", "supabase"),
    ("/auth/v1/admin/users/{userId}/factors/{factorId}", "delete", "Remove a user's factor → the factor", "supabase"),
    (
      "/auth/v1/admin/users/{userId}/factors/{factorId}", "put", "Rename a factor {friendly_name} → the factor",
      "supabase"
    ),
    (
      "/auth/v1/admin/audit", "get", "The audit trail, newest first: page, per_page, query=author:|action:|type:",
      "supabase"
    ),
    ("/auth/v1/invite", "post", "Invite {email, data} (admin) → the user", "supabase"),
    ("/auth/v1/otp", "post", "Mail a magic link and a 6-digit code {email, create_user}", "supabase"),
    (
      "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start", "post",
      "Start a TOTP enrolment {idToken, totpEnrollmentInfo:{}} → totpSessionInfo", "firebase"
    ),
    (
      "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:finalize", "post",
      "Finish it {idToken, displayName, totpVerificationInfo:{sessionInfo, verificationCode}} → tokens", "firebase"
    ),
    (
      "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:withdraw", "post",
      "Remove a factor {idToken, mfaEnrollmentId}", "firebase"
    ),
    (
      "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize", "post",
      "Second sign-in step {mfaPendingCredential, mfaEnrollmentId, totpVerificationInfo:{verificationCode}} → tokens",
      "firebase"
    ),
    (
      "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink", "post",
      "Sign in with an EMAIL_SIGNIN code {email, oobCode}", "firebase"
    ),
    (
      "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp", "post",
      "Sign in with a fake IdP token {requestUri, postBody: \"id_token=…&providerId=google.com\"}", "firebase"
    ),
  ]

  static func addAccountRoutes(to paths: inout JSONObject) {
    for route in accountRoutes {
      var entry = paths[route.path]?.object ?? JSONObject()
      var operation = JSONObject()
      operation["summary"] = .string(route.summary)
      operation["tags"] = [.string(route.tag)]
      operation["responses"] = ["200": ["description": "OK"]]
      if route.method != "get" && route.method != "delete" {
        operation["requestBody"] = ["content": ["application/json": ["schema": ["type": "object"]]]]
      }
      var parameters: [JSON] = []
      for name in ["userId", "factorId"] where route.path.contains("{\(name)}") {
        parameters.append(["name": .string(name), "in": "path", "required": true, "schema": ["type": "string"]])
      }
      if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
      entry[route.method] = .object(operation)
      paths[route.path] = .object(entry)
    }
  }
}
