import Essentials
import JSONKit
import Synchronization

/// All projects of the Firebase side behind one lock. A project id seen for the first time gets a
/// separate, empty state (the official emulator's default single-project mode only warns).
final class FirebaseState: Sendable {
  let defaultProjectId: String
  private let defaultEmailPrivacy: Bool
  private let store: any DocumentStore
  private let projects: Mutex<[String: FirebaseProject]>

  init(defaultProjectId: String, emailPrivacy: Bool, store: any DocumentStore) throws {
    self.defaultProjectId = defaultProjectId
    self.defaultEmailPrivacy = emailPrivacy
    self.store = store
    var projects: [String: FirebaseProject] = [:]
    func project(_ key: String) -> FirebaseProject {
      Self.project(key, in: &projects, store: store, defaultProjectId: defaultProjectId, emailPrivacy: emailPrivacy)
    }
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
    for (key, document) in try store.loadAll(FirebaseProject.phoneCodesTable) {
      guard let (projectId, code) = FirebasePhoneCode.fromStorage(document) else {
        store.noteUnreadable(FirebaseProject.phoneCodesTable, key: key)
        continue
      }
      project(projectId).phoneCodes[code.sessionInfo] = code
    }
    self.projects = Mutex(projects)
  }

  /// Runs `body` with the project's state while holding the lock. Keep slow work (bcrypt) outside.
  func with<T: Sendable, E: Error>(_ projectId: String, _ body: (FirebaseProject) throws(E) -> T) throws(E) -> T {
    try projects.withLock { projects throws(E) in
      try body(
        Self.project(
          projectId, in: &projects, store: store, defaultProjectId: defaultProjectId,
          emailPrivacy: defaultEmailPrivacy))
    }
  }

  /// The password hash config of a project or tenant store (stored on first use).
  func hashConfig(_ projectId: String) -> FirebaseScryptParameters { with(projectId) { $0.storedHashConfig() } }

  /// The store of `PROJECT` or `PROJECT/tenants/TENANT`, created empty on first use. A tenant's
  /// store shares the project's e-mail privacy setting only through `FirebaseAPI`.
  private static func project(
    _ key: String, in projects: inout [String: FirebaseProject], store: any DocumentStore,
    defaultProjectId: String, emailPrivacy: Bool
  ) -> FirebaseProject {
    if let existing = projects[key] { return existing }
    let (projectId, tenantId) = FirebaseProject.parse(stateKey: key)
    let created = FirebaseProject(
      projectId: projectId, tenantId: tenantId, store: store,
      emailPrivacy: projectId == defaultProjectId && emailPrivacy)
    projects[key] = created
    return created
  }

  /// The tenants of `projectId` that exist (created, or used in the default mode), by tenant id.
  func tenants(of projectId: String) -> [FirebaseTenant] {
    let prefix = projectId + FirebaseProject.tenantInfix
    return projects.withLock { projects in
      projects.filter { $0.key.hasPrefix(prefix) }.compactMap(\.value.tenant).sorted { $0.tenantId < $1.tenantId }
    }
  }
}
