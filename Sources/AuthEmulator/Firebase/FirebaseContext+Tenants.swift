import Essentials
import HTTPServerKit
import JSONKit

/// Which tenant's user store a call goes to (`server.ts`), and what a tenant allows: a tenant's
/// accounts, codes and tokens are its own.
extension FirebaseContext {
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
