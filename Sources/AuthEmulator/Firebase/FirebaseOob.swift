import JSONKit

/// A pending out-of-band code (`state.ts` `OobRecord`). Single-use; only like production do
/// password-reset codes expire.
struct FirebaseOob: Equatable, Sendable {
  var oobCode: String
  var email: String
  var newEmail: String?
  var requestType: String
  var oobLink: String
  /// Creation order (codes are listed oldest first).
  var sequence: Int
  /// When it was made, milliseconds since 1970 (nil in rows written before this was kept).
  var createdAt: Int?

  /// As `GET /emulator/v1/projects/{id}/oobCodes` lists it.
  var listJSON: JSON {
    var record = JSONObject()
    record["email"] = .string(email)
    if let newEmail { record["newEmail"] = .string(newEmail) }
    record["requestType"] = .string(requestType)
    record["oobCode"] = .string(oobCode)
    record["oobLink"] = .string(oobLink)
    return .object(record)
  }

  func storageJSON(projectId: String) -> JSON {
    [
      "projectId": .string(projectId), "oobCode": .string(oobCode), "email": .string(email),
      "newEmail": .optional(newEmail), "requestType": .string(requestType), "oobLink": .string(oobLink),
      "sequence": .int(sequence), "createdAt": createdAt.map(JSON.int) ?? .null,
    ]
  }

  static func fromStorage(_ json: JSON) -> (projectId: String, oob: FirebaseOob)? {
    guard let projectId = json["projectId"]?.string, let code = json["oobCode"]?.string,
      let email = json["email"]?.string, let requestType = json["requestType"]?.string,
      let link = json["oobLink"]?.string, let sequence = json["sequence"]?.int
    else { return nil }
    let oob = FirebaseOob(
      oobCode: code, email: email, newEmail: json["newEmail"]?.string,
      requestType: requestType, oobLink: link, sequence: sequence,
      createdAt: json["createdAt"]?.int)
    return (projectId, oob)
  }

  /// The `mode` of the action link for a request type.
  static func mode(for requestType: String) -> String {
    switch requestType {
    case "PASSWORD_RESET": return "resetPassword"
    case "VERIFY_EMAIL": return "verifyEmail"
    case "VERIFY_AND_CHANGE_EMAIL": return "verifyAndChangeEmail"
    case "RECOVER_EMAIL": return "recoverEmail"
    default: return "signIn"
    }
  }
}
