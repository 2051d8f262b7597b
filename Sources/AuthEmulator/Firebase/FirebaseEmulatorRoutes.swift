import Essentials
import HTTPServerKit
import JSONKit

/// The emulator's own `/emulator/v1/projects/{id}/…` utilities: accounts deleted, codes listed, the config.
struct FirebaseEmulatorRoutes: Sendable {
  let context: FirebaseContext

  func emulatorEndpoint(_ endpoint: FirebaseRoute.EmulatorEndpoint, projectId: String, request: ServerRequest) throws
    -> JSON
  {
    switch endpoint {
    case .deleteAccounts:
      try context.state.with(projectId) { try $0.deleteAllAccounts() }
      return [:]
    case .oobCodes:
      return context.state.with(projectId) { project in ["oobCodes": .array(project.oobsInOrder.map(\.listJSON))] }
    case .verificationCodes:
      return context.state.with(projectId) { project in
        ["verificationCodes": .array(project.phoneCodesInOrder.map(\.listJSON))]
      }
    case .getConfig:
      return context.state.with(projectId) { FirebaseAdminRoutes.emulatorConfig($0) }
    case .patchConfig:
      var body = try FirebaseBody.parse(request)
      try body.validate([("signIn", .object), ("emailPrivacyConfig", .object)])
      var mask: [String] = []
      if body["signIn"]?["allowDuplicateEmails"] != nil { mask.append("signIn.allowDuplicateEmails") }
      if body["signIn"]?["email"]?["enabled"] != nil { mask.append("signIn.email.enabled") }
      if body["signIn"]?["email"]?["passwordRequired"] != nil { mask.append("signIn.email.passwordRequired") }
      if body["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] != nil {
        mask.append("emailPrivacyConfig.enableImprovedEmailPrivacy")
      }
      return try context.state.with(projectId) { project in
        try FirebaseAdminRoutes.applyConfig(body, mask: mask, to: project)
        return FirebaseAdminRoutes.emulatorConfig(project)
      }
    }
  }
}
