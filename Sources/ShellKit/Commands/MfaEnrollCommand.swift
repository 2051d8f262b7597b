import AuthCore
import Essentials
import OneTimeCode

struct MfaEnrollCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let selfVerify = invocation[.selfVerify]
    // Checked before anything is sent: an enrolment nobody can confirm would be left behind.
    guard selfVerify || context.passwordPrompter != nil else {
      throw AuthError(
        .mfaRequired,
        message:
          "mfa enroll asks for the first code from the authenticator app on a terminal; without one, add --self-verify."
      )
    }
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    if let name = invocation[.factorName]?.trimmingWhitespace, !name.isEmpty {
      // Checked before enrolling, on both backends: a second factor of the same name could not
      // be told apart later (mfa remove, login --factor would have to ask for ids).
      let (user, _) = try await sessions.authorized(provider: provider) { try await provider.user(of: $0) }
      if let taken = user.factors.first(where: { $0.status == .verified && $0.name?.lowercased() == name.lowercased() })
      {
        throw AuthError(
          .usage, message: "A verified factor is already named \(name) (\(taken.id)): nothing was enrolled.",
          hint: "Choose another --name, or remove that factor first: authsh mfa remove \(taken.id)")
      }
    }
    var (enrollment, session): (TOTPEnrollment, AuthSession)
    do {
      (enrollment, session) = try await sessions.authorized(provider: provider) {
        try await provider.enrollTOTP($0, name: invocation[.factorName])
      }
    } catch var error as AuthError where error.providerCode == "mfa_factor_name_conflict" {
      // An unfinished enrolment (challenged, never verified) keeps its name on Supabase.
      let name = invocation[.factorName] ?? ""
      let user = try? await sessions.authorized(provider: provider) { try await provider.user(of: $0) }.0
      let stale = user?.factors.first { $0.name?.lowercased() == name.lowercased() }
      error.message =
        "A factor named \(name) already exists\(stale.map { " (\($0.id), \($0.status.rawValue))" } ?? ""): nothing was enrolled."
      error.hint =
        "An unfinished enrolment keeps its name: remove it with authsh mfa remove \(stale?.id ?? "ID") (authsh mfa list shows the ids), or choose another --name."
      throw error
    }
    context.redactor.register(enrollment.secret)
    let qrCode = TerminalQR.render(enrollment.uri)
    // The secret is for the person enrolling: drawn on their terminal, never into a pipe or a log.
    let draws = invocation.output(.showTokens) || (context.outputToPerson && !invocation.output(.json))
    let verified: AuthSession
    if selfVerify {
      guard let code = TOTP.code(secret: enrollment.secret, unixTime: context.clock.unixNow) else {
        throw AuthError(.malformedResponse, detail: "the new factor's secret is not base32")
      }
      verified = try await provider.verifyEnrollment(session, enrollment, code: code)
    } else {
      let shown = draws ? enrollment : enrollment.redacted
      var intro = ["Scan this QR code with your authenticator app, or enter the secret by hand."]
      intro +=
        draws
        ? TerminalQR.fitted(qrCode, style: context.style)
        : ["qr code " + Redactor.mask + " (on a terminal, or with --show-tokens)"]
      intro += ["uri     " + TerminalText.escape(shown.uri), "secret  " + TerminalText.escape(shown.secret)]
      // The question goes to the terminal as it is (not through the output sink): laid out here.
      if let width = context.style.width { intro = intro.map { TerminalLayout.wrap($0, width: width) } }
      verified = try await verifyTyped(enrollment, session: session, provider: provider, context, intro: intro)
    }
    session = verified
    try sessions.save(session: session)
    let user = try? await provider.user(of: session)
    if let user {
      session.user = user
      try sessions.save(session: session)
      let named = user.factors.last { $0.name != nil && $0.name == enrollment.name }
      enrollment.factorID = enrollment.factorID ?? named?.id ?? user.factors.last?.id
    }
    var result = CommandResult(command: invocation.spec.name)
    var output = EnrollmentOutput(session: session, enrollment: enrollment, qrCode: qrCode)
    output.draws = draws
    result.payload = output
    result.notes.append(
      "Added the authenticator '\(enrollment.name ?? enrollment.factorID ?? "TOTP")'; sign-ins now ask for its code.")
    return result
  }
}

extension MfaEnrollCommand {
  /// The first code, typed (three tries: a mistyped code asks again).
  private func verifyTyped(
    _ enrollment: TOTPEnrollment, session: AuthSession, provider: any AuthProvider, _ context: ShellContext,
    intro: [String]
  ) async throws -> AuthSession {
    guard let prompter = context.passwordPrompter else { throw AuthError(.mfaRequired) }
    var prompt = intro.joined(separator: "\n") + "\n" + SecondFactorSource.prompt
    for attempt in 1...3 {
      let stopped = Self.unverified(enrollment)
      guard let typed = prompter.readPassword(prompt: prompt, ifInterrupted: stopped.hint ?? "") else { throw stopped }
      let code = typed.trimmingWhitespace.replacingAll(" ", with: "")
      context.redactor.register(code)
      do {
        return try await provider.verifyEnrollment(session, enrollment, code: code)
      } catch let error as AuthError where error.code == .mfaInvalidCode && attempt < 3 {
        prompt = "That code was not accepted. Try the current one.\n" + SecondFactorSource.prompt
      }
    }
    throw AuthError(.mfaInvalidCode)
  }

  /// Stopped at the code prompt: what was left on the server, named, with the way to remove it
  /// (the hint is the line printed under "Cancelled.").
  static func unverified(_ enrollment: TOTPEnrollment) -> AuthError {
    var error = AuthError(.cancelled, message: "Cancelled at the code prompt.")
    if let id = enrollment.factorID {
      let name = enrollment.name.map { " '\($0)'" } ?? ""
      error.hint =
        "The factor\(name) \(id) was enrolled and is left unverified (authsh mfa list shows it); sign-ins do not ask for it. Remove it with: authsh mfa remove \(id)"
    } else {
      // Firebase adds the factor only when its first code is accepted.
      error.hint = "Nothing was enrolled: the factor is added only once its first code is accepted."
    }
    return error
  }
}
