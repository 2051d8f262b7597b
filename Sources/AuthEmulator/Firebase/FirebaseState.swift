import Foundation
import JSONKit

/// All projects of the Firebase side behind one lock. A project id seen for the first time gets a
/// separate, empty state (the official emulator's default single-project mode only warns).
final class FirebaseState: @unchecked Sendable {
  let defaultProjectId: String
  private let defaultEmailPrivacy: Bool
  private let store: any DocumentStore
  private let lock = NSLock()
  private var projects: [String: FirebaseProject] = [:]

  init(defaultProjectId: String, emailPrivacy: Bool, store: any DocumentStore) throws {
    self.defaultProjectId = defaultProjectId
    self.defaultEmailPrivacy = emailPrivacy
    self.store = store
    for (key, document) in try store.loadAll(FirebaseProject.configTable) {
      guard let projectId = document["projectId"]?.string else {
        store.noteUnreadable(FirebaseProject.configTable, key: key)
        continue
      }
      project(projectId).load(config: document)
    }
    for (key, document) in try store.loadAll(FirebaseProject.usersTable) {
      guard let (projectId, user) = FirebaseUser.fromStorage(document) else {
        store.noteUnreadable(FirebaseProject.usersTable, key: key)
        continue
      }
      project(projectId).load(user: user)
    }
    for (key, document) in try store.loadAll(FirebaseProject.oobTable) {
      guard let (projectId, oob) = FirebaseOob.fromStorage(document) else {
        store.noteUnreadable(FirebaseProject.oobTable, key: key)
        continue
      }
      project(projectId).load(oob: oob)
    }
    for (key, document) in try store.loadAll(FirebaseProject.totpSessionsTable) {
      guard let (projectId, session) = FirebaseTotpSession.fromStorage(document) else {
        store.noteUnreadable(FirebaseProject.totpSessionsTable, key: key)
        continue
      }
      project(projectId).totpSessions[session.sessionInfo] = session
    }
  }

  /// Runs `body` with the project's state while holding the lock. Keep slow work (bcrypt) outside.
  func with<T>(_ projectId: String, _ body: (FirebaseProject) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(project(projectId))
  }

  private func project(_ projectId: String) -> FirebaseProject {
    if let existing = projects[projectId] { return existing }
    let created = FirebaseProject(
      projectId: projectId, store: store, emailPrivacy: projectId == defaultProjectId && defaultEmailPrivacy)
    projects[projectId] = created
    return created
  }
}
