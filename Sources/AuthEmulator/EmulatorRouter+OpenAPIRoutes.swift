import JSONKit

/// The OpenAPI entries of both sides' routes, read from their route tables (`SupabaseAPI.routes`,
/// `FirebaseAPI.routes`): the summary, path parameters and a JSON body for the methods that take
/// one. Fallback routes of any method (the Identity Toolkit calls answered 501) are left out.
extension EmulatorRouter {
  /// Each declared (method, path) as the document lists it.
  static var productOperations: [(path: String, method: String, summary: String, tag: String, security: String?)] {
    let supabase = SupabaseAPI.routes.map { route in
      let security = [SupabaseRoute.Access.user: "userJWT", .admin: "serviceRoleKey"][route.access]
      return (
        route.pattern.openAPIPath, route.method, route.summary, route.isGoTrue ? "supabase" : "emulator", security
      )
    }
    let firebase = FirebaseAPI.routes.filter { $0.method != "*" }.map { route in
      let tag = route.pattern.description.hasPrefix("/emulator/") ? "emulator" : "firebase"
      return (route.pattern.openAPIPath, route.method, route.summary, tag, String?.none)
    }
    return (supabase + firebase).map {
      (path: $0.0, method: $0.1.lowercased(), summary: $0.2, tag: $0.3, security: $0.4)
    }
  }

  /// How the Supabase routes' callers identify themselves (the route table's access level).
  static let securitySchemes: JSON = [
    "userJWT": ["type": "http", "scheme": "bearer", "description": "A user's access token"],
    "serviceRoleKey": ["type": "http", "scheme": "bearer", "description": "A service_role JWT or a secret key"],
  ]

  static func addProductRoutes(to paths: inout JSONObject) {
    for route in productOperations {
      var entry = paths[route.path]?.object ?? JSONObject()
      var operation = JSONObject()
      operation["summary"] = .string(route.summary)
      operation["tags"] = [.string(route.tag)]
      operation["responses"] = ["200": ["description": "OK"]]
      if let security = route.security { operation["security"] = [.object(JSONObject([(security, [])]))] }
      if route.method != "get" && route.method != "delete" {
        operation["requestBody"] = ["content": ["application/json": ["schema": ["type": "object"]]]]
      }
      let names = RoutePattern(route.path).parameterNames
      if !names.isEmpty {
        operation["parameters"] = .array(
          names.map { ["name": .string($0), "in": "path", "required": true, "schema": ["type": "string"]] })
      }
      entry[route.method] = .object(operation)
      paths[route.path] = .object(entry)
    }
  }
}
