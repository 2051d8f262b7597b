import Essentials
import HTTPServerKit
import JSONKit

/// Identity Platform tenants: the v2 management API (`projects/{p}/tenants`). Which tenant's
/// user store a call goes to is the context's (`FirebaseContext+Tenants.swift`).
struct FirebaseTenantRoutes: Sendable {
  let context: FirebaseContext

  func listTenants(_ call: FirebaseCall, projectId: String) throws -> JSON {
    let pageSize = call.request.query("pageSize").flatMap(Int.init) ?? 20
    try require(pageSize >= 1 && pageSize <= 1000, "INVALID_PAGE_SIZE")
    let start = call.request.query("pageToken").flatMap { $0.isEmpty ? nil : $0 }
    var tenants = context.state.tenants(of: projectId)
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
    let existing = Set(context.state.tenants(of: projectId).map(\.tenantId))
    var tenantId = FirebaseRandom.alphanumeric(28)
    while existing.contains(tenantId) { tenantId = FirebaseRandom.alphanumeric(28) }
    tenant.tenantId = tenantId
    try context.state.with(FirebaseProject.stateKey(projectId: projectId, tenantId: tenantId)) {
      try $0.setTenant(tenant)
    }
    return tenant.resourceJSON(projectId: projectId)
  }

  /// `GET`, `PATCH` (`updateMask`) and `DELETE` of `projects/{p}/tenants/{t}`; an unknown tenant
  /// is `TENANT_NOT_FOUND` in both modes.
  func manageTenant(_ operation: FirebaseOperation, _ call: FirebaseCall, projectId: String) throws -> JSON {
    let mask = (call.request.query("updateMask") ?? "").split(separator: ",").map { String($0) }
    return try context.state.with(call.projectId) { project in
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

}
