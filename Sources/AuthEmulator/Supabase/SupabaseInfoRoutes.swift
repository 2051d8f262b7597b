import HTTPServerKit
import JSONKit

/// GoTrue's small public endpoints: `GET /health`, `GET /settings` and the JWKS.
struct SupabaseInfoRoutes: Sendable {
  let context: GoTrueContext

  func health(_ request: ServerRequest) throws -> ServerResponse {
    context.json([
      "version": "v2.196.0", "name": "GoTrue", "description": "GoTrue is a user registration and authentication API",
    ])
  }

  func settings(_ request: ServerRequest) throws -> ServerResponse {
    let providers = [
      "anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "snapchat", "figma", "fly", "github",
      "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc", "notion", "spotify", "slack",
      "slack_oidc", "workos", "twitch", "twitter", "email", "phone", "zoom",
    ]
    // Social providers count as enabled once an account has one (seeded, or the emulator's IdP sign-in).
    let social = context.state.read { $0.socialProviders }
    let external = JSONObject(
      providers.map {
        (
          $0,
          JSON.bool(
            $0 == "email" || $0 == "phone" || ($0 == "anonymous_users" && context.config.anonymousSignIns)
              || social.contains($0))
        )
      })
    return context.json([
      "external": .object(external), "disable_signup": false, "mailer_autoconfirm": .bool(!context.confirmEmail),
      "phone_autoconfirm": false, "sms_provider": "", "saml_enabled": false,
      "saml_private_key_next_configured": false, "passkeys_enabled": false,
    ])
  }

  /// HS256 keys are never published, so an HS256-only server lists none.
  func jwks(_ request: ServerRequest) throws -> ServerResponse {
    context.json(["keys": []], headers: [("Cache-Control", "public, max-age=600")])
  }
}
