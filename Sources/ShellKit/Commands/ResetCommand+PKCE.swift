import AuthCore

extension ResetCommand {
  static let pkceResetNote =
    "The link comes back with ?code=: finish with `authsh reset confirm LINK` here within 5 minutes "
    + "(GoTrue keeps a PKCE flow that long, and only this machine holds its code verifier)."
}
