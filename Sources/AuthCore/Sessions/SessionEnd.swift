/// Why a session ended, in words that match what the server said: "logged out due to inactivity"
/// only when the refresh token itself was refused as expired or unknown.
package enum SessionEnd {
  /// Backend codes meaning the user no longer exists.
  static let userGone: Set<String> = ["user_not_found", "USER_NOT_FOUND"]
  /// Backend codes meaning the server ended the session (signed out elsewhere, password changed,
  /// tokens revoked by an admin): Supabase's `session_not_found` on any call, Firebase's
  /// `TOKEN_EXPIRED` from the token exchange ("the user's credential is no longer valid").
  static let revokedOnCall: Set<String> = ["session_not_found"]
  static let revokedOnRefresh: Set<String> = ["session_not_found", "TOKEN_EXPIRED"]

  package static let userDeletedMessage =
    "Your account no longer exists on this backend (the user was deleted). Sign up or log in again."
  package static let revokedMessage =
    "The server ended this session (signed out elsewhere, password changed, or revoked). Please log in again."

  /// The refresh token was refused (`session_expired`), possibly after `callError` refused the
  /// access token.
  package static func refreshRefused(_ error: AuthError, after callError: AuthError?) -> AuthError {
    let codes = [callError?.providerCode, error.providerCode].compactMap { $0 }
    var explained = error
    if codes.contains(where: userGone.contains) {
      explained.message = userDeletedMessage
    } else if callError?.providerCode.map(revokedOnCall.contains) == true
      || error.providerCode.map(revokedOnRefresh.contains) == true
    {
      explained.message = revokedMessage
    } else {
      explained.message = AuthError.defaultMessage(for: .sessionExpired)
    }
    return explained
  }

  /// The refresh worked but the server still refused the new access token.
  package static func refusedAfterRefresh(_ error: AuthError) -> AuthError {
    var explained = error
    explained.message = error.providerCode.map(userGone.contains) == true ? userDeletedMessage : revokedMessage
    return explained
  }
}
