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
    for (key, document) in try store.loadAll(FirebaseProject.tenantsTable) {
      guard let (projectId, tenant) = FirebaseTenant.fromStorage(document) else {
        store.noteUnreadable(FirebaseProject.tenantsTable, key: key)
        continue
      }
      project(FirebaseProject.stateKey(projectId: projectId, tenantId: tenant.tenantId)).load(tenant: tenant)
    }
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

  /// The password hash config of a project or tenant store (stored on first use).
  func hashConfig(_ projectId: String) -> FirebaseScryptParameters { with(projectId) { $0.storedHashConfig() } }

  /// The store of `PROJECT` or `PROJECT/tenants/TENANT`, created empty on first use. A tenant's
  /// store shares the project's e-mail privacy setting only through `FirebaseAPI`.
  private func project(_ key: String) -> FirebaseProject {
    if let existing = projects[key] { return existing }
    let (projectId, tenantId) = FirebaseProject.parse(stateKey: key)
    let created = FirebaseProject(
      projectId: projectId, tenantId: tenantId, store: store,
      emailPrivacy: projectId == defaultProjectId && defaultEmailPrivacy)
    projects[key] = created
    return created
  }

  /// The tenants of `projectId` that exist (created, or used in the default mode), by tenant id.
  func tenants(of projectId: String) -> [FirebaseTenant] {
    lock.lock()
    defer { lock.unlock() }
    let prefix = projectId + FirebaseProject.tenantInfix
    return projects.filter { $0.key.hasPrefix(prefix) }.compactMap(\.value.tenant).sorted { $0.tenantId < $1.tenantId }
  }
}
