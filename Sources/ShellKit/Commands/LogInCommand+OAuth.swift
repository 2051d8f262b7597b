import AuthCore
import Essentials

extension LogInCommand {
  func logInWithOAuth(_ invocation: Invocation, _ context: ShellContext, provider name: String) async throws
    -> CommandResult
  {
    if invocation[.accountEmail] != nil || PasswordSource(invocation: invocation, context: context).isExplicit
      || invocation[.link] || invocation[.loginPhone] != nil
      || invocation.hasAny([FlagKey.customToken, FlagKey.customTokenEnv, FlagKey.totpSecretEnv, FlagKey.mfaCode])
    {
      throw AuthError(
        .usage,
        message:
          "login --oauth signs in through the provider's page in a browser: leave out EMAIL, the password, --link, --phone, --custom-token and the second-factor flags."
      )
    }
    let (provider, target) = try makeProvider(invocation, context)
    guard let backendName = OAuthStart.backendName(name, for: target.provider) else {
      throw AuthError(
        .usage, message: "\(target.provider == .supabase ? "Supabase" : "Firebase") has no \(name) sign-in.",
        hint: "Supabase: \(Self.oauthNames(.supabase)). Firebase: \(Self.oauthNames(.firebase)).")
    }
    guard let browser = context.browserSignIn else {
      throw AuthError(.notSupported, message: "login --oauth needs authsh's own browser sign-in (not in this surface).")
    }
    let sessions = context.sessions(for: target)
    if !invocation[.noSave] { try sessions.checkAvailable() }
    let callback = try await browser.listen()
    let session: AuthSession
    do {
      let start = try await provider.beginOAuth(provider: backendName, callback: callback, pkce: PKCEPair.generate())
      if let verifier = start.verifier { context.redactor.register(verifier) }
      browser.show(start.url, provider: backendName)
      let returned = try await browser.callback()
      session = try await provider.finishOAuth(start, returnedTo: returned)
      await browser.close()
    } catch {
      await browser.close()
      throw error
    }
    let who = session.user.email.isEmpty ? session.user.id : session.user.email
    var result = try keepSignedIn(session, email: who, invocation, context, target: target)
    result.notes.insert("Signed in with \(backendName) as \(who).", at: 0)
    return result
  }

  private static func oauthNames(_ kind: ProviderKind) -> String {
    OAuthStart.providers.filter { OAuthStart.backendName($0, for: kind) != nil }.joined(separator: ", ")
  }
}
