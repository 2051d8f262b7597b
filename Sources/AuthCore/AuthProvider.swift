/// The backends authsh speaks.
package enum ProviderKind: String, Sendable, CaseIterable {
  case supabase, firebase
}

/// One backend's e-mail/password surface. Every error thrown is an `AuthError`.
package protocol AuthProvider: Sendable {
  var kind: ProviderKind { get }
  /// The endpoint shown by `status` (the API base URL).
  var endpoint: String { get }

  func signUp(email: String, password: String, name: String?) async throws -> SignUpOutcome
  func signIn(email: String, password: String) async throws -> AuthSession
  func sendPasswordReset(email: String) async throws
  /// Sets a new password from a mailed link or code; returns the signed-in session.
  func confirmPasswordReset(codeOrLink: String, email: String?, newPassword: String) async throws -> AuthSession
  /// The user, fresh from the server.
  func user(of session: AuthSession) async throws -> AuthUser
  /// Exchanges the refresh token. Refusals (revoked, reused, unknown) throw `session_expired`.
  func refresh(_ session: AuthSession) async throws -> AuthSession
  func signOut(_ session: AuthSession, scope: LogoutScope) async throws
  /// The latest mail an emulator "sent" to this address (nil when none).
  func latestMail(to email: String) async throws -> InboxMessage?

  // Second factors (defaults in SecondFactor.swift: not supported).
  /// The password step: a session, or the second step that is due.
  func beginSignIn(email: String, password: String) async throws -> SignInStep
  /// The second step: a code of one of `pending.factors`.
  func finishSignIn(_ pending: PendingSecondFactor, factor: AuthFactor, code: String) async throws -> AuthSession
  func enrollTOTP(_ session: AuthSession, name: String?) async throws -> TOTPEnrollment
  /// Confirms an enrolment with its first code; the session the backend answers with.
  func verifyEnrollment(_ session: AuthSession, _ enrollment: TOTPEnrollment, code: String) async throws -> AuthSession
  func removeFactor(_ session: AuthSession, id: String) async throws -> AuthSession?
  /// Passwordless: mails a sign-in link (and, on Supabase, a 6-digit code) to an existing account.
  func sendSignInLink(email: String) async throws
  /// Signs in with the mailed link or code.
  func signInWithLink(email: String, codeOrLink: String) async throws -> SignInStep
  /// Social sign-in providers (`google`, `apple`, …) an existing address may have used: the
  /// project's enabled ones (Supabase `/settings`) or the account's (Firebase `createAuthUri`).
  func socialProviders(for email: String) async throws -> [String]

  // Phone sign-in (defaults in PhoneSignIn.swift: not supported).
  /// Texts a one-time code to `phone` (E.164), creating the account when there is none.
  func sendPhoneCode(phone: String) async throws -> PhoneVerification
  /// Signs in with the texted code.
  func signInWithPhone(_ verification: PhoneVerification, code: String) async throws -> AuthSession
  /// Signs in with a custom token an app server minted (Firebase; default: not supported).
  func signInWithCustomToken(_ token: String) async throws -> AuthSession

  // PKCE (Supabase, `flow = "pkce"`; defaults in PKCE.swift: not supported with a pair).
  /// `sendPasswordReset` / `sendSignInLink` with the challenge of `pkce` (nil: as without).
  func sendPasswordReset(email: String, pkce: PKCEPair?) async throws
  func sendSignInLink(email: String, pkce: PKCEPair?) async throws
  /// `signInWithLink` for a link that came back with `?code=`: the code and the flow's verifier.
  func signInWithLink(email: String, authCode: String, verifier: String) async throws -> SignInStep
  /// `confirmPasswordReset` for a recovery link that came back with `?code=`.
  func confirmPasswordReset(authCode: String, verifier: String, newPassword: String) async throws -> AuthSession

  // Browser sign-in with a social provider (`login --oauth`; defaults in OAuthSignIn.swift).
  /// Where to send the browser for `provider`, returning to `callback` (a loopback address).
  func beginOAuth(provider: String, callback: String, pkce: PKCEPair) async throws -> OAuthStart
  /// The session, from the address the browser came back to.
  func finishOAuth(_ start: OAuthStart, returnedTo url: String) async throws -> AuthSession
}
