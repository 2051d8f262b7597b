import Essentials
import HTTPServerKit
import JSONKit

/// An account's sessions on its page: Supabase's sessions with their refresh tokens (when each
/// started and was last refreshed, from which browser and address), each revocable, and "sign out
/// everywhere"; Firebase keeps no sessions, so its page says what it has and revokes the refresh
/// tokens as the Admin SDK's `revokeRefreshTokens` does.
struct ConsoleSessionsPage: ConsolePage {
  let context: ConsoleContext

  func sessionsSection(side: ConsoleSide, id: String, user: JSON) -> String {
    var out = "<h2 id=\"sessions-heading\">Sessions</h2><div id=\"sessions\">"
    out += side == .supabase ? supabaseSessions(id: id) : firebaseSessions(id: id, user: user)
    return out + "</div>"
  }

  private func supabaseSessions(id: String) -> String {
    typealias H = ConsoleHTML
    let base = "/_/accounts/supabase/\(H.component(id))/"
    let listings = supabase.sessionListings(ofUser: id)
    var out = "<p class=\"muted\">Each sign-in starts a session; a refresh swaps its refresh token for a new one. "
    out += "Revoking a session ends it with its refresh tokens, as a sign-out does: its next refresh fails "
    out += "and its access token is refused by the API.</p>"
    if listings.isEmpty {
      return out + "<p id=\"no-sessions\">No live session: nothing is signed in to this account.</p>"
    }
    for (index, listing) in listings.enumerated() {
      let session = listing.session
      let agent = session.userAgent.isEmpty ? "not recorded" : session.userAgent
      let address = session.ip.isEmpty ? "not recorded" : session.ip
      let methods = session.amr.map(\.method).joined(separator: ", ")
      let rows: [(String, String)] = [
        ("Session", H.id(session.id)),
        ("Created", ConsoleTime.markup(milliseconds: session.createdAt / 1000)),
        ("Last refreshed", ConsoleTime.markup(milliseconds: session.refreshedAt.map { $0 / 1000 })),
        ("User agent", H.text(agent)), ("Address", H.text(address)),
        ("Signed in with", H.text(methods + " (" + session.computedAAL + ")")),
        ("Refresh tokens", Self.refreshTokensCell(listing)),
      ]
      out += "<div class=\"session\" id=\"session-\(index + 1)\">"
      out += H.facts(rows, caption: "Session \(index + 1) of \(listings.count)")
      out += H.button(
        action: base + "revoke-session", label: "Revoke session \(index + 1)", token: EmulatorConsole.token,
        fields: [("session", session.id)], danger: true)
      out += "</div>"
    }
    out +=
      "<p>" + H.button(action: base + "sign-out-everywhere", label: "Sign out everywhere", token: EmulatorConsole.token)
    return out + "</p>"
  }

  /// How many refresh tokens the session was given, how many are revoked, and whether one still works.
  private static func refreshTokensCell(_ listing: SupabaseAPI.SessionListing) -> String {
    let tokens = listing.refreshTokens
    let revoked = tokens.filter(\.revoked).count
    var cell = "\(tokens.count) issued, \(revoked) revoked"
    if listing.session.familyRevoked || listing.activeToken == nil {
      cell += "; none works (a used token was presented again, so the whole family was revoked)"
    } else if let active = listing.activeToken {
      cell += "; the live one was issued \(ConsoleTime.markup(milliseconds: active.createdAt / 1000))"
    }
    return cell
  }

  private func firebaseSessions(id: String, user: JSON) -> String {
    typealias H = ConsoleHTML
    var out = "<p class=\"muted\">Firebase Auth keeps no sessions: a refresh token is a record the app holds, "
    out += "not stored by the backend (nor by this emulator), so there is no list of devices, user agents or "
    out += "addresses, and no way to end one device alone. Revoking ends them all at once: every refresh token "
    out += "and ID token issued before then is no longer valid.</p>"
    let since = user["validSince"].map { ConsoleTime.markup($0, unit: .seconds) } ?? "never revoked"
    out += H.facts(
      [
        ("Last sign-in", ConsoleTime.markup(user["lastLoginAt"], unit: .milliseconds)),
        ("Last refresh", ConsoleTime.markup(user["lastRefreshAt"], unit: .iso)),
        ("Tokens valid since", since),
      ], caption: "Refresh tokens")
    out += "<p class=\"muted\" id=\"revocation-effect\">"
    out +=
      mode.likeProduction
      ? "As in production, a refresh token issued before the revocation fails to refresh (TOKEN_EXPIRED), and "
        + "verifyIdToken with checkRevoked refuses the ID tokens issued before it."
      : "As in the official emulator, refresh tokens keep refreshing after a revocation (start the emulator "
        + "with --like-production to have them fail as in production); verifyIdToken with checkRevoked "
        + "refuses the ID tokens issued before it."
    out += "</p>"
    let scope = tenant.map { [("tenant", $0)] } ?? []
    let base = "/_/accounts/firebase/\(H.component(id))/"
    return out
      + H.button(
        action: base + "sign-out-everywhere", label: "Sign out everywhere (revoke refresh tokens)",
        token: EmulatorConsole.token, fields: scope)
  }

  /// `POST …/revoke-session` (Supabase, the form's `session`) and `POST …/sign-out-everywhere`.
  func endSessions(side: ConsoleSide, id: String, every: Bool) async -> Result<ConsoleNotice, ActionFailure> {
    switch side {
    case .supabase:
      let only = every ? nil : field("session") ?? ""
      if only == "" { return .failure(ActionFailure(status: 400, message: "Choose a session to revoke.")) }
      do {
        let ended = try supabase.endSessions(ofUser: id, only: only)
        if ended == 0 && !every {
          return .failure(ActionFailure(status: 404, message: "That session has ended already."))
        }
        return .success(every ? .signedOutEverywhere : .sessionRevoked)
      } catch {
        return .failure(ActionFailure(status: 500, message: "The sessions could not be ended: \(error)"))
      }
    case .firebase:
      guard every else {
        return .failure(ActionFailure(status: 404, message: "Firebase keeps no sessions to revoke one by one."))
      }
      // What the Admin SDK's `revokeRefreshTokens` sends: `validSince`, now in seconds.
      let seconds = String(Int64(now.timeIntervalSince1970.rounded(.down)))
      return await change(.firebase, id, supabase: [:], firebase: ["validSince": .string(seconds)], .tokensRevoked)
    }
  }
}
