import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

/// Each side declares its routes once (`SupabaseAPI.routes`, `FirebaseAPI.routes`); routing, the
/// protection layer and the OpenAPI document come from those tables, so they cannot drift.
@Suite("Route tables")
struct RouteTableTests {
  /// A concrete path for a pattern: each parameter becomes `p1`, `p2`, … (a wildcard `x`).
  static func sample(_ pattern: String) -> String {
    var counter = 0
    return pattern.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
      if part == "{path}" || part == "*" { return "x" }
      guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return String(part) }
      counter += 1
      return "p\(counter)" + part[part.index(after: close)...]
    }.joined(separator: "/")
  }

  @Test("no (method, path) is declared twice on either side")
  func noDuplicates() {
    #expect(SupabaseAPI.routes.duplicates.isEmpty)
    #expect(FirebaseAPI.routes.duplicates.isEmpty)
  }

  @Test("every OpenAPI operation of a side resolves to that side's route with the same method")
  func openAPIResolves() throws {
    let paths = try #require(EmulatorRouter.openAPIDocument["paths"]?.object)
    let control = ["/emulator/v1/outbox", "/emulator/v1/limits", "/emulator/v1/faults", "/emulator/v1/config"]
    var checked = 0
    for (path, operations) in paths.pairs where !control.contains(path) {
      for method in operations.object?.keys ?? [] {
        let concrete = Self.sample(path)
        let upper = method.uppercased()
        var found = false
        if case .found = SupabaseAPI.routes.resolve(method: upper, path: concrete) { found = true }
        if case .found = FirebaseAPI.routes.resolve(method: upper, path: concrete) { found = true }
        #expect(found, "\(upper) \(path) has no route")
        checked += 1
      }
    }
    let declared = SupabaseAPI.routes.count + FirebaseAPI.routes.filter { $0.method != "*" }.count
    #expect(checked == declared, "every declared route is in the document once")
    // The access level of the table: user routes ask for a user's token, admin routes a service key.
    #expect(paths["/auth/v1/user"]?["put"]?["security"] == [["userJWT": []]])
    #expect(paths["/auth/v1/admin/users/{userId}"]?["get"]?["security"] == [["serviceRoleKey": []]])
    #expect(paths["/auth/v1/signup"]?["post"]?["security"] == nil)
  }

  @Test("every Supabase rate limiter belongs to a route; POST /magiclink has its limiter and a handler")
  func limitersBelongToRoutes() {
    var used: Set<SupabaseLimit> = []
    for route in SupabaseAPI.routes {
      for check in route.guards {
        switch check {
        case .limit(let limit): used.insert(limit)
        case .signupLimit: used.formUnion([.signup, .anonymous])
        case .captcha, .captchaExceptTokenRefresh: break
        }
      }
    }
    #expect(used == Set(SupabaseLimit.allCases))
    let magicLink = SupabaseAPI.routes.first { $0.method == "POST" && $0.pattern.description == "/auth/v1/magiclink" }
    #expect(magicLink?.guards == [.limit(.magicLink), .captcha])
  }

  @Test("each Supabase route's path type reads exactly its pattern's parameters")
  func supabasePathTypes() {
    for route in SupabaseAPI.routes {
      #expect(route.pathParameterNames == route.pattern.parameterNames, "\(route.method) \(route.pattern)")
    }
    let path = UserFactorPath(["userId": "U", "factorId": "F"])
    #expect(path.userID.raw == "U" && path.factorID.raw == "F")
    #expect(throws: GoTrueError.notFound("validation_failed", "factor_id must be an UUID")) {
      try path.factorID.uuid()
    }
  }

  @Test("patterns: parameters, a :suffix in a segment, a trailing wildcard")
  func patterns() {
    #expect(RoutePattern("/a/{id}/b").match("/a/42/b") == ["id": "42"])
    #expect(RoutePattern("/a/{id}/b").match("/a//b") == nil)
    #expect(RoutePattern("/a/{id}/b").match("/a/42/b/c") == nil)
    #expect(RoutePattern("/v1/projects/{p}:query").match("/v1/projects/demo:query") == ["p": "demo"])
    #expect(RoutePattern("/v1/projects/{p}:query").match("/v1/projects/demo") == nil)
    #expect(RoutePattern("/v2/accounts/*").match("/v2/accounts/x/y") == [:])
    #expect(RoutePattern("/v2/accounts/*").match("/v2/other") == nil)
  }

  @Test("derived answers: 405 without a body, GoTrue's 404 text, preflight for any path, the fake IdP's bare 405")
  func derivedAnswers() async throws {
    let emu = try TestEmulator()
    let wrongMethod = await emu.send("DELETE", "signup")
    #expect(wrongMethod.status == 405 && wrongMethod.body.isEmpty)
    #expect(await emu.send("PATCH", "factors/\(UUID().uuidString)/verify").status == 405)
    let unknown = await emu.send("GET", "nowhere")
    #expect(unknown.status == 404 && unknown.text == "404 page not found\n")
    let preflight = await emu.send("OPTIONS", "nowhere", headers: [("Origin", "http://app.test")])
    #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Methods") != nil)
    #expect(await emu.send("GET", "/emulator/v1/supabase/idp").status == 405)
    #expect(await emu.send("GET", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k").status == 404)
    #expect(await emu.send("PUT", "/identitytoolkit.googleapis.com/v2/projects/p/tenants").status == 404)
    #expect(await emu.send("POST", "/identitytoolkit.googleapis.com/v2/passwordPolicy?key=k").status == 501)
  }

  @Test("POST /magiclink mails a link as GoTrue does (422 without an e-mail; like production its own bucket)")
  func magicLink() async throws {
    let emu = try TestEmulator()
    let missing = await emu.send("POST", "magiclink", json: [:])
    #expect(missing.status == 422 && missing.errorCode == "validation_failed")
    #expect(await emu.signUp("ml@example.com").status == 200)
    let sent = await emu.send("POST", "magiclink", json: ["email": "ml@example.com"])
    #expect(sent.status == 200 && sent.json == [:])
    #expect(emu.outbox("ml@example.com").last?.kind == "magiclink")

    let limited = try TestEmulator { $0.likeProduction = true }
    var statuses: [Int] = []
    for index in 0..<31 {
      let answer = await limited.send("POST", "magiclink", json: ["email": .string("n\(index)@example.com")])
      statuses.append(answer.status)
    }
    #expect(statuses.last == 429)
  }
}
