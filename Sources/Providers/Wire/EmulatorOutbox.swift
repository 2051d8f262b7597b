import AuthCore
import Foundation
import JSONKit

/// Reads `GET /emulator/v1/outbox?email=` of `authsh emulator`.
struct EmulatorOutbox {
  let client: WireClient

  /// The newest message for `email` from one side; nil when there is none.
  /// Throws `not_supported` when the server has no outbox (not an emulator).
  func latest(origin: String, email: String, side: String) async throws -> InboxMessage? {
    // `+` must be encoded: servers read it as a space in a query (ada+test@example.com).
    guard let url = URL(string: origin + "/emulator/v1/outbox?email=" + FormEncoding.encode(email)) else { throw AuthError(.configError, message: "'\(origin)' is not a valid URL.") }
    let response = try await client.send("GET", url, headers: [("Accept", "application/json")])
    if response.status == 404 { throw Self.notAnEmulator }
    guard response.status == 200 else { throw WireBody.serverError(response) }
    let json = try WireBody.json(response)
    guard let messages = json["messages"]?.array else { throw WireBody.missing("messages", in: response) }
    guard let last = messages.last(where: { $0["side"]?.string == side }) else { return nil }
    return InboxMessage(
      kind: MailKind.neutral(last["kind"]?.string ?? ""), code: last["code"]?.string ?? "",
      link: last["link"]?.string ?? "", email: last["email"]?.string ?? email)
  }

  static let notAnEmulator = AuthError(
    .notSupported, message: "This backend has no outbox: `inbox` works with an emulator (`authsh emulator`, or the Firebase emulator).")
}

/// Mail kinds named the same on both providers, so scripts run on either.
public enum MailKind {
  public static func neutral(_ kind: String) -> String {
    switch kind {
    case "recovery", "PASSWORD_RESET": return "password_reset"
    case "signup", "VERIFY_EMAIL": return "confirm_email"
    case "email_change", "VERIFY_AND_CHANGE_EMAIL": return "email_change"
    case "magiclink", "EMAIL_SIGNIN": return "magic_link"
    default: return kind.lowercased()
    }
  }
}
