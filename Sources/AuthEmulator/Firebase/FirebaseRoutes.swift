/// One route of the Firebase side: the only place it is declared. `FirebaseRoute(request)` resolves
/// a request from this table (any other method on a known path is the Identity Toolkit's 404, a
/// preflight is answered for every path the side owns) and the OpenAPI document lists it.
struct FirebaseRouteEntry: RouteDeclaration {
  enum Target: Sendable, Equatable {
    case readiness, action, handler, secureToken
    case toolkit(FirebaseOperation)
    case emulator(FirebaseRoute.EmulatorEndpoint)
  }

  let method: String
  let pattern: RoutePattern
  let target: Target
  let summary: String

  init(_ method: String, _ pattern: String, _ target: Target, _ summary: String) {
    self.method = method
    self.pattern = RoutePattern(pattern)
    self.target = target
    self.summary = summary
  }
}

extension FirebaseAPI {
  private typealias Entry = FirebaseRouteEntry
  private static let v1 = "/identitytoolkit.googleapis.com/v1"
  private static let v2 = "/identitytoolkit.googleapis.com/v2"
  private static let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
  private static let emulator = "/emulator/v1/projects/{projectId}"

  /// Every route of the Firebase side, each once (tenants' copies of the project routes included).
  static let routes: [FirebaseRouteEntry] =
    [
      Entry("GET", "/", .readiness, "Readiness: {authEmulator: {ready: true}}"),
      Entry("GET", "/emulator/action", .action, "A mailed link (mode, oobCode, apiKey, continueUrl)"),
      Entry(
        "GET", FirebaseOAuthRoutes.handlerPath, .handler,
        "A social provider's page (providerId, continueUri from createAuthUri)"),
      Entry(
        "POST", FirebaseOAuthRoutes.handlerPath, .handler,
        "The account chosen there → continueUri with an unsigned id_token"),
      Entry("POST", "/securetoken.googleapis.com/v1/token", .secureToken, "Refresh {grant_type, refresh_token}"),
    ] + clientRoutes + projectRoutes(v1 + "/projects/{projectId}", tenant: "")
    + projectRoutes(v1 + "/projects/{projectId}/tenants/{tenantId}", tenant: " (a tenant)")
    + [
      Entry("GET", v1 + "/projects", .toolkit(.getProjects), "The project's authorized domains"),
      Entry("POST", v1 + "/recaptchaParams", .toolkit(.unimplemented("recaptchaParams")), "Not served (501)"),
      Entry("POST", v1 + "/accounts/*", .toolkit(.unimplemented("accounts/")), "Not served (501)"),
    ] + v2Routes + legacyRoutes + emulatorRoutes(emulator, tenant: "")
    + emulatorRoutes(emulator + "/tenants/{tenantId}", tenant: " (a tenant)")

  private static let clientRoutes: [Entry] =
    [
      ("signUp", FirebaseOperation.signUp, "Sign up {email, password} (none: anonymous) → tokens"),
      ("signInWithPassword", .signInWithPassword, "Sign in {email, password} → tokens or mfaPendingCredential"),
      ("sendOobCode", .sendOobCode, "Mail a code {requestType, email | idToken, returnOobLink}"),
      ("resetPassword", .resetPassword, "Use a reset code {oobCode, newPassword}"),
      ("update", .update, "Change an account {idToken | localId, …}"),
      ("lookup", .lookup, "Look accounts up {idToken | localId | email}"),
      ("delete", .delete, "Delete an account {idToken | localId}"),
      ("createAuthUri", .createAuthUri, "Sign-in methods of {identifier}"),
      ("signInWithEmailLink", .signInWithEmailLink, "Sign in with an EMAIL_SIGNIN code {email, oobCode}"),
      (
        "signInWithIdp", .signInWithIdp,
        "Sign in with a fake IdP token {requestUri, postBody: \"id_token=…&providerId=google.com\"}"
      ),
      (
        "sendVerificationCode", .sendVerificationCode, "Text a 6-digit code {phoneNumber, recaptchaToken} → sessionInfo"
      ),
      (
        "signInWithPhoneNumber", .signInWithPhoneNumber,
        "Sign in with the texted code {sessionInfo, code} → tokens, isNewUser, phoneNumber"
      ),
      (
        "signInWithCustomToken", .signInWithCustomToken,
        "Sign in with a custom token {token} (an unsigned JWT, as the Admin SDKs make for an emulator, or strict JSON)"
      ),
    ].map { Entry("POST", v1 + "/accounts:" + $0.0, .toolkit($0.1), $0.2) }
    + [
      "signInWithGameCenter",
      "issueSamlResponse", "verifyIosClient",
    ].map { Entry("POST", v1 + "/accounts:" + $0, .toolkit(.unimplemented($0)), "Not served (501)") }

  private static func projectRoutes(_ base: String, tenant: String) -> [Entry] {
    [
      ("/accounts", FirebaseOperation.signUp, "Create an account (admin)"),
      ("/accounts:lookup", .lookup, "Look accounts up (admin)"),
      ("/accounts:update", .update, "Change an account (admin)"),
      ("/accounts:delete", .delete, "Delete an account (admin)"),
      ("/accounts:sendOobCode", .sendOobCode, "A link without mail {requestType, email, returnOobLink}"),
      ("/accounts:batchDelete", .batchDelete, "Delete accounts {localIds, force}"),
      ("/accounts:query", .query, "Count or list accounts"),
      (":queryAccounts", .query, "Count or list accounts (older name)"),
      (":createSessionCookie", .createSessionCookie, "A session cookie {idToken, validDuration}"),
      ("/accounts:batchCreate", .batchCreate, "Import accounts {users, hashAlgorithm, …}"),
    ].map { Entry("POST", base + $0.0, .toolkit($0.1), $0.2 + tenant) }
      + [
        Entry(
          "GET", base + "/accounts:batchGet", .toolkit(.batchGet), "List accounts: maxResults, nextPageToken" + tenant)
      ]
  }

  private static let v2Routes: [Entry] =
    [
      Entry("GET", v2 + "/projects/{projectId}/tenants", .toolkit(.listTenants), "List tenants"),
      Entry("POST", v2 + "/projects/{projectId}/tenants", .toolkit(.createTenant), "Create a tenant"),
      Entry("GET", v2 + "/projects/{projectId}/tenants/{tenantId}", .toolkit(.getTenant), "One tenant"),
      Entry("PATCH", v2 + "/projects/{projectId}/tenants/{tenantId}", .toolkit(.updateTenant), "Change a tenant"),
      Entry("DELETE", v2 + "/projects/{projectId}/tenants/{tenantId}", .toolkit(.deleteTenant), "Delete a tenant"),
      Entry("GET", v2 + "/projects/{projectId}/config", .toolkit(.getConfig), "The project config (signIn, mfa, …)"),
      Entry(
        "PATCH", v2 + "/projects/{projectId}/config", .toolkit(.updateConfig),
        "Change it: ?updateMask=signIn.email,mfa,emailPrivacyConfig"),
      Entry(
        "POST", v2 + "/accounts/mfaEnrollment:start", .toolkit(.mfaEnrollmentStart),
        "Start a TOTP enrolment {idToken, totpEnrollmentInfo:{}} → totpSessionInfo"),
      Entry(
        "POST", v2 + "/accounts/mfaEnrollment:finalize", .toolkit(.mfaEnrollmentFinalize),
        "Finish it {idToken, displayName, totpVerificationInfo:{sessionInfo, verificationCode}} → tokens"),
      Entry(
        "POST", v2 + "/accounts/mfaEnrollment:withdraw", .toolkit(.mfaEnrollmentWithdraw),
        "Remove a factor {idToken, mfaEnrollmentId}"),
      Entry(
        "POST", v2 + "/accounts/mfaSignIn:start", .toolkit(.mfaSignInStart), "Second sign-in step for phone factors"),
      Entry(
        "POST", v2 + "/accounts/mfaSignIn:finalize", .toolkit(.mfaSignInFinalize),
        "Second sign-in step {mfaPendingCredential, mfaEnrollmentId, totpVerificationInfo:{verificationCode}} → tokens"),
    ]
    + ["accounts/*", "projects/*", "passwordPolicy", "recaptchaConfig", "defaultSupportedIdps"].map {
      Entry("*", v2 + "/" + $0, .toolkit(.unimplemented($0)), "Not served (501)")
    }

  /// The v3 relying-party names the older SDKs call.
  private static let legacyRoutes: [Entry] =
    [
      ("createAuthUri", FirebaseOperation.createAuthUri), ("deleteAccount", .delete), ("getAccountInfo", .lookup),
      ("emailLinkSignin", .signInWithEmailLink), ("verifyAssertion", .signInWithIdp),
      ("getOobConfirmationCode", .sendOobCode), ("resetPassword", .resetPassword), ("setAccountInfo", .update),
      ("signupNewUser", .signUp), ("verifyPassword", .signInWithPassword),
    ].map { Entry("POST", v3 + "/" + $0.0, .toolkit($0.1), "v3 name of the v1 call") }
    + [Entry("GET", v3 + "/getProjectConfig", .toolkit(.getProjects), "v3 name of GET /v1/projects")]
    + [
      "getRecaptchaParam", "publicKeys", "sendVerificationCode", "setProjectConfig", "verifyCustomToken",
      "verifyPhoneNumber", "signOutUser", "downloadAccount", "uploadAccount",
    ].map { Entry("*", v3 + "/" + $0, .toolkit(.unimplemented($0)), "Not served (501)") }

  private static func emulatorRoutes(_ base: String, tenant: String) -> [Entry] {
    [
      Entry("DELETE", base + "/accounts", .emulator(.deleteAccounts), "Delete every Firebase account" + tenant),
      Entry("GET", base + "/oobCodes", .emulator(.oobCodes), "Pending Firebase out-of-band codes" + tenant),
      Entry(
        "GET", base + "/verificationCodes", .emulator(.verificationCodes),
        "Pending phone codes {verificationCodes: [{code, phoneNumber, sessionInfo}]}" + tenant),
      Entry("GET", base + "/config", .emulator(.getConfig), "Firebase emulator settings" + tenant),
      Entry(
        "PATCH", base + "/config", .emulator(.patchConfig),
        "Change signIn.allowDuplicateEmails, signIn.email, emailPrivacyConfig" + tenant),
    ]
  }
}
