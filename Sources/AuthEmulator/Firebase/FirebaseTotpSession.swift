import Essentials
import JSONKit

/// A started TOTP enrolment: the secret waits here until the first code proves the app has it.
struct FirebaseTotpSession: Sendable {
  var sessionInfo: String
  var localId: String
  var secret: String
  var expiresAt: Date

  func storageJSON(projectId: String) -> JSON {
    [
      "projectId": .string(projectId), "sessionInfo": .string(sessionInfo), "localId": .string(localId),
      "secret": .string(secret), "expiresAt": .double(expiresAt.timeIntervalSince1970),
    ]
  }

  static func fromStorage(_ json: JSON) -> (projectId: String, session: FirebaseTotpSession)? {
    guard let projectId = json["projectId"]?.string, let sessionInfo = json["sessionInfo"]?.string,
      let localId = json["localId"]?.string, let secret = json["secret"]?.string,
      let expiresAt = json["expiresAt"]?.double
    else { return nil }
    return (
      projectId,
      FirebaseTotpSession(
        sessionInfo: sessionInfo, localId: localId, secret: secret,
        expiresAt: Date(timeIntervalSince1970: expiresAt))
    )
  }
}

extension FirebaseProject {
  static let totpSessionsTable = "firebase_totp_sessions"

  /// Stores a started enrolment; the expired ones go at the same time.
  func saveTotpSession(_ session: FirebaseTotpSession) throws {
    let expired = totpSessions.values.filter {
      $0.expiresAt < session.expiresAt.addingTimeInterval(-FirebaseMfaRoutes.totpEnrollmentLifetime)
    }
    var changes: [DocumentChange] = expired.map {
      .delete(table: Self.totpSessionsTable, key: storageKey($0.sessionInfo))
    }
    changes.append(
      .put(
        table: Self.totpSessionsTable, key: storageKey(session.sessionInfo),
        document: session.storageJSON(projectId: stateKey)))
    try store.apply(changes)
    for old in expired { totpSessions[old.sessionInfo] = nil }
    totpSessions[session.sessionInfo] = session
  }

  func deleteTotpSession(_ sessionInfo: String) throws {
    guard totpSessions[sessionInfo] != nil else { return }
    try store.delete(Self.totpSessionsTable, key: storageKey(sessionInfo))
    totpSessions[sessionInfo] = nil
  }
}
