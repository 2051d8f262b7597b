import Essentials
import HTTPServerKit
import JSONKit

/// Identity Platform tenants: the v2 management API (`projects/{p}/tenants`), and which tenant's
/// user store a call goes to. A tenant's accounts, codes and tokens are its own: a project-level
/// lookup does not see them, and their ID tokens carry `firebase.tenant`.
extension FirebaseAPI {
  /// The tenant named by the path, the body's `tenantId` or the ID token's `firebase.tenant`
  /// (`server.ts`); two that differ are `TENANT_ID_MISMATCH`.
  func tenant(of body: FirebaseBody, pathTenant: String?) throws -> String? {
    var tenantId = pathTenant
    if let named = body.truthy("tenantId") {
      if let tenantId { try require(tenantId == named, "TENANT_ID_MISMATCH") }
      tenantId = named
    }
    if let idToken = body.truthy("idToken"),
      let tokenTenant = FirebaseTokens.decodeIdToken(idToken)?.payload["firebase"]?["tenant"]?.string
    {
      if let tenantId { try require(tenantId == tokenTenant, "TENANT_ID_MISMATCH") }
      tenantId = tokenTenant
    }
    return tenantId
  }

  /// A tenant must exist. Like production an unknown one is `TENANT_NOT_FOUND`; by default it is
  /// created on first use with everything allowed, as the official emulator does.
  func requireTenant(projectId: String, tenantId: String) throws {
    let key = FirebaseProject.stateKey(projectId: projectId, tenantId: tenantId)
    try state.with(key) { project in
      guard project.tenant == nil else { return }
      guard !mode.likeProduction else { throw FirebaseError.bad("TENANT_NOT_FOUND") }
      try project.setTenant(.implicit(tenantId))
    }
  }

  func listTenants(_ call: FirebaseCall, projectId: String) throws -> JSON {
    let pageSize = call.request.query("pageSize").flatMap(Int.init) ?? 20
    try require(pageSize >= 1 && pageSize <= 1000, "INVALID_PAGE_SIZE")
    let start = call.request.query("pageToken").flatMap { $0.isEmpty ? nil : $0 }
    var tenants = state.tenants(of: projectId)
    if let start { tenants = tenants.filter { $0.tenantId > start } }
    var response = JSONObject()
    response["tenants"] = .array(tenants.prefix(pageSize).map { $0.resourceJSON(projectId: projectId) })
    if tenants.count > pageSize, let last = tenants.prefix(pageSize).last {
      response["nextPageToken"] = .string(last.tenantId)
    }
    return .object(response)
  }

  func createTenant(_ call: FirebaseCall, projectId: String) throws -> JSON {
    var tenant = FirebaseTenant(tenantId: "")
    try tenant.apply(call.body.object, mask: [])
    let existing = Set(state.tenants(of: projectId).map(\.tenantId))
    var tenantId = FirebaseRandom.alphanumeric(28)
    while existing.contains(tenantId) { tenantId = FirebaseRandom.alphanumeric(28) }
    tenant.tenantId = tenantId
    try state.with(FirebaseProject.stateKey(projectId: projectId, tenantId: tenantId)) { try $0.setTenant(tenant) }
    return tenant.resourceJSON(projectId: projectId)
  }

  /// `GET`, `PATCH` (`updateMask`) and `DELETE` of `projects/{p}/tenants/{t}`; an unknown tenant
  /// is `TENANT_NOT_FOUND` in both modes.
  func manageTenant(_ operation: FirebaseOperation, _ call: FirebaseCall, projectId: String) throws -> JSON {
    let mask = (call.request.query("updateMask") ?? "").split(separator: ",").map { String($0) }
    return try state.with(call.projectId) { project in
      guard var tenant = project.tenant else { throw FirebaseError.bad("TENANT_NOT_FOUND") }
      switch operation {
      case .updateTenant:
        try tenant.apply(call.body.object, mask: mask)
        try project.setTenant(tenant)
      case .deleteTenant:
        try project.deleteTenant()
        return [:]
      default:
        break
      }
      return tenant.resourceJSON(projectId: projectId)
    }
  }

  /// E-mail/password sign-in must be on: the project's `signIn.email.enabled`, and a tenant's
  /// `allowPasswordSignup` (the official emulator's codes for a tenant).
  func requirePasswordSignIn(_ project: FirebaseProject, signUp: Bool) throws {
    if let tenant = project.tenant {
      try require(!tenant.disableAuth, "PROJECT_DISABLED")
      try require(tenant.allowPasswordSignup, signUp ? "OPERATION_NOT_ALLOWED" : "PASSWORD_LOGIN_DISABLED")
    }
    try require(
      project.emailSignIn.enabled || project.tenant != nil,
      signUp ? "OPERATION_NOT_ALLOWED" : "OPERATION_NOT_ALLOWED : Password sign-in is disabled for this project")
  }
}
