import AuthCore
import JSONKit

/// What a command's result prints, the same on every surface (one-shot, the shell, piped input,
/// `source`): `--json` gives the result model, otherwise the human text.
package enum ResultText {
  package static func render(_ result: CommandResult, invocation: Invocation, style: Style, now: Int) -> (
    out: String, err: String
  ) {
    if invocation.output(.json) {
      let json = result.json(
        now: now, revealTokens: invocation.output(.showTokens), includeClaims: invocation.given(.claims))
      return (json.prettyText + "\n", "")
    }
    return HumanRenderer.render(result, invocation: invocation, style: style, now: now)
  }

  /// The line after "Cancelled." for a command whose request may have reached the server and
  /// changed something there (`signup`: the account may exist; trying again says so); nil for
  /// one that only reads.
  /// A command that knows what its interruption left behind says it in the error's hint
  /// (`mfa enroll` at its code prompt: the unverified factor and how to remove it).
  package static func cancelledNote(_ invocation: Invocation, error: AuthError? = nil) -> String? {
    if let error, error.code == .cancelled, let hint = error.hint { return hint }
    guard invocation.mayChangeTheServer else { return nil }
    return
      "The request may already have reached the server and been applied: check before trying '\(invocation.spec.name)' again."
  }

  /// Values the output may show although the redactor knows them: a mail link's public values
  /// (a Firebase `apiKey`) always; with `--show-tokens` the session's tokens and the mail's code
  /// and link secrets too.
  package static func revealed(_ result: CommandResult, invocation: Invocation) -> [String] {
    let inbox = result.payload(as: InboxOutput.self)?.message
    var values = inbox?.publicValues ?? []
    if invocation.output(.showTokens) {
      values += [result.session?.accessToken, result.session?.refreshToken].compactMap { $0 }
      values += inbox?.secretValues ?? []
      // `mfa enroll --show-tokens`: the new factor's secret, which the redactor otherwise masks.
      values += result.payload(as: EnrollmentOutput.self).map { [$0.enrollment.secret] } ?? []
    }
    return values.filter { !$0.isEmpty }
  }
}

extension Invocation {
  /// The run's output flags (`… | authsh --json`) added to a line that did not give them itself.
  package func withOutputDefaults(_ defaults: [String: [FlagValue]]) -> Invocation {
    guard spec.takesOutputFlags, !defaults.isEmpty else { return self }
    var copy = self
    for (name, values) in defaults where copy.flags[name] == nil { copy.flags[name] = values }
    return copy
  }
}

/// `login --help`, `whoami -h`: the words of the command whose help is asked for.
package enum HelpRequest {
  package static func command(in words: [Word]) -> [String]? { ReplRendering.helpRequest(words) }
}
