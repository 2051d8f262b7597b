import Essentials
import HTTPServerKit
import JSONKit

/// A group of console pages: a type built per request that holds the request's `ConsoleContext`
/// (and whatever else its pages need) and reads the request, calls the admin APIs and answers
/// through it, in the context's own words.
protocol ConsolePage: Sendable {
  var context: ConsoleContext { get }
}

extension ConsolePage {
  typealias APIAnswer = ConsoleContext.APIAnswer
  typealias ActionFailure = ConsoleContext.ActionFailure
  typealias EditFailure = ConsoleContext.EditFailure

  var request: ServerRequest { context.request }
  var form: [(name: String, value: String)] { context.form }
  var supabase: SupabaseAPI { context.supabase }
  var firebase: FirebaseAPI { context.firebase }
  var mode: EmulatorMode { context.mode }
  var clock: any EmulatorClock { context.clock }
  var tenant: String? { context.tenant }
  var now: Date { context.now }
  var projectId: String { context.projectId }

  func field(_ name: String) -> String? { context.field(name) }
  func parameter(_ name: String) -> String? { context.parameter(name) }

  func supabaseAdmin(_ method: String, _ path: String, body: JSON? = nil) async -> APIAnswer {
    await context.supabaseAdmin(method, path, body: body)
  }

  func firebaseAdmin(_ operation: String, tenant: String?, body: JSON, version: String = "v1") async -> APIAnswer {
    await context.firebaseAdmin(operation, tenant: tenant, body: body, version: version)
  }

  func firebaseTenants() async -> [String] { await context.firebaseTenants() }

  func accountJSON(side: ConsoleSide, id: String) async -> JSON? { await context.accountJSON(side: side, id: id) }

  func change(
    _ side: ConsoleSide, _ id: String, supabase body: JSON, firebase update: JSON, _ done: ConsoleNotice
  ) async -> Result<ConsoleNotice, ActionFailure> {
    await context.change(side, id, supabase: body, firebase: update, done)
  }

  static var securityHeaders: [(name: String, value: String)] { ConsoleContext.securityHeaders }
  static func html(_ status: Int, _ markup: String) -> ServerResponse { ConsoleContext.html(status, markup) }
  static func json(_ value: JSON) -> ServerResponse { ConsoleContext.json(value) }
  static func redirect(_ location: String) -> ServerResponse { ConsoleContext.redirect(location) }
  static func problem(_ status: Int, _ message: String, back: String) -> ServerResponse {
    ConsoleContext.problem(status, message, back: back)
  }
}
