import AuthCore
import Essentials
import JSONKit

/// Reads `GET /emulator/v1/outbox?email=` of `authsh emulator`.
struct EmulatorOutbox {
  let client: WireClient

  /// The newest message for `email` from one side; nil when there is none.
  /// Throws `not_supported` when the server has no outbox (not an emulator).
  func latest(origin: String, email: String, side: String) async throws -> InboxMessage? {
    // `+` must be encoded: servers read it as a space in a query (ada+test@example.com).
    let messages: [JSON]
    if let snapshot = MailSnapshot.current {
      // A batch of lookups: the whole outbox once, then this address's messages from it.
      guard let url = URL(string: origin + "/emulator/v1/outbox") else { throw Self.badOrigin(origin) }
      let client = self.client
      let all = try await snapshot.json(url) { try await Self.read(url, client: client) }
      let wanted = email.lowercased()
      messages = (all["messages"]?.array ?? []).filter { $0["email"]?.string?.lowercased() == wanted }
    } else {
      guard let url = URL(string: origin + "/emulator/v1/outbox?email=" + FormEncoding.encode(email)) else {
        throw Self.badOrigin(origin)
      }
      messages = try await Self.read(url, client: client)["messages"]?.array ?? []
    }
    guard let last = messages.last(where: { $0["side"]?.string == side }) else { return nil }
    return InboxMessage(
      kind: MailKind.neutral(last["kind"]?.string ?? ""), code: last["code"]?.string ?? "",
      link: last["link"]?.string ?? "", email: last["email"]?.string ?? email)
  }

  /// The outbox's answer; `not_supported` when the server has none.
  static func read(_ url: URL, client: WireClient) async throws -> JSON {
    let response = try await client.send("GET", url, headers: [("Accept", "application/json")])
    if response.status == 404 { throw Self.notAnEmulator }
    guard response.status == 200 else { throw WireBody.serverError(response) }
    let json = try WireBody.json(response)
    guard json["messages"]?.array != nil else { throw WireBody.missing("messages", in: response) }
    return json
  }

  static func badOrigin(_ origin: String) -> AuthError {
    AuthError(.configError, message: "'\(origin)' is not a valid URL.")
  }

  static let notAnEmulator = AuthError(
    .notSupported,
    message: "This backend has no outbox: `inbox` works with an emulator (`authsh emulator`, or the Firebase emulator)."
  )
}

/// Mail kinds named the same on both providers, so scripts run on either.
package enum MailKind {
  package static func neutral(_ kind: String) -> String {
    switch kind {
    case "recovery", "PASSWORD_RESET": return "password_reset"
    case "signup", "VERIFY_EMAIL": return "confirm_email"
    case "email_change", "VERIFY_AND_CHANGE_EMAIL": return "email_change"
    case "magiclink", "EMAIL_SIGNIN": return "magic_link"
    default: return kind.lowercased()
    }
  }
}
