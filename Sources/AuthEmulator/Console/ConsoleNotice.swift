/// What a page says after an action: one of a fixed set of messages, named in the URL by its code
/// (`?done=banned`). Text in the URL is never shown: an unknown code shows nothing.
enum ConsoleNotice: String, CaseIterable, Sendable {
  case confirmed, banned, unbanned, disabled, enabled
  case passwordSet = "password-set"
  case factorsRemoved = "factors-removed"
  case noFactors = "no-factors"
  case deleted
  case faultAdded = "fault-added"
  case faultsCleared = "faults-cleared"
  case profileSaved = "profile-saved"
  case userMetadataSaved = "user-metadata-saved"
  case appMetadataSaved = "app-metadata-saved"
  case claimsSaved = "claims-saved"
  case selectionConfirmed = "selection-confirmed"
  case selectionBanned = "selection-banned"
  case selectionUnbanned = "selection-unbanned"
  case selectionDisabled = "selection-disabled"
  case selectionEnabled = "selection-enabled"
  case selectionDeleted = "selection-deleted"
  case allDeleted = "all-deleted"
  case sessionRevoked = "session-revoked"
  case signedOutEverywhere = "signed-out-everywhere"
  case tokensRevoked = "tokens-revoked"

  var message: String {
    switch self {
    case .confirmed: return "E-mail confirmed."
    case .banned: return "Banned."
    case .unbanned: return "Unbanned."
    case .disabled: return "Disabled."
    case .enabled: return "Enabled."
    case .passwordSet: return "Password set."
    case .factorsRemoved: return "Second factors removed."
    case .noFactors: return "The account has no second factors."
    case .deleted: return "Account deleted."
    case .faultAdded: return "Fault added."
    case .faultsCleared: return "Every fault cleared."
    case .profileSaved: return "E-mail, phone and name saved."
    case .userMetadataSaved: return "user_metadata saved."
    case .appMetadataSaved: return "app_metadata saved."
    case .claimsSaved: return "Custom claims saved."
    case .selectionConfirmed: return "E-mails of the selected accounts confirmed."
    case .selectionBanned: return "The selected accounts banned."
    case .selectionUnbanned: return "The selected accounts unbanned."
    case .selectionDisabled: return "The selected accounts disabled."
    case .selectionEnabled: return "The selected accounts enabled."
    case .selectionDeleted: return "The selected accounts deleted."
    case .allDeleted: return "Every account of this side deleted."
    case .sessionRevoked: return "Session revoked: its refresh tokens no longer refresh."
    case .signedOutEverywhere: return "Signed out everywhere: every session and refresh token ended."
    case .tokensRevoked: return "Refresh tokens revoked: those issued before now are no longer valid."
    }
  }

  /// The notice of `code` (a `done` query value) as markup, or "" for nil or an unknown code.
  static func markup(_ code: String?) -> String {
    guard let notice = code.flatMap(ConsoleNotice.init(rawValue:)) else { return "" }
    return "<p class=\"notice\" role=\"status\">\(ConsoleHTML.text(notice.message))</p>"
  }
}
