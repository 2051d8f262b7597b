import Essentials
import HTTPServerKit
import JSONKit

/// The web console at `/_/`: pages over the same state the APIs serve, so a change made here is
/// what the official clients read next. GETs never change anything; every change is a POST that
/// `ConsoleGuard` checks first. This is the front: it checks the request, builds its
/// `ConsoleContext` and hands the request to the page group its path names.
struct EmulatorConsole: Sendable {
  let context: ConsoleContext
  /// The mails and codes (the inbox and the account pages show them).
  let outbox: Outbox
  /// The faults page's.
  let faults: FaultInjector
  let latencyMs: Int

  /// The per-process secret every POST form carries.
  static let token: String = {
    var generator = PooledRandom()
    return (0..<4).map { _ in
      let hex = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }()

  static func owns(_ path: String) -> Bool { path == "/_" || path.hasPrefix("/_/") }

  /// Entry point from `EmulatorRouter.route` (before faults and latency: the console is never slowed
  /// down or broken by them).
  static func serve(_ request: ServerRequest, router: EmulatorRouter) async -> ServerResponse {
    guard let supabase = router.apis.lazy.compactMap({ $0 as? SupabaseAPI }).first,
      let firebase = router.apis.lazy.compactMap({ $0 as? FirebaseAPI }).first
    else { return .text(404, "404 page not found") }
    if let refused = ConsoleGuard.refusal(request, bindHost: supabase.config.host, token: token) { return refused }
    let form =
      request.method == "POST"
      ? ConsoleMultipart.fields(request) ?? FormCoding.decode(String(decoding: request.body, as: UTF8.self)) : []
    let context = ConsoleContext(
      supabase: supabase, firebase: firebase, mode: router.mode, clock: router.clock, request: request, form: form)
    let console = EmulatorConsole(
      context: context, outbox: router.outbox, faults: router.faults, latencyMs: router.latencyMs)
    return await console.route()
  }

  private func route() async -> ServerResponse {
    let request = context.request
    let path = request.path
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).dropFirst().map {
      FormCoding.percentDecode(String($0))
    }
    let get = request.method == "GET" || request.method == "HEAD"
    let post = request.method == "POST"
    let bulk = ConsoleBulkPages(context: context)
    let transfer = ConsoleTransferPages(context: context)
    let create = ConsoleCreatePage(context: context)
    let deleteAll = ConsoleDeleteAllPage(context: context)
    let account = ConsoleAccountPage(context: context, outbox: outbox)
    let actions = ConsoleAccountActions(context: context, outbox: outbox)
    let inbox = ConsoleInboxPage(outbox: outbox)
    let faults = ConsoleFaultsPage(context: context, faults: self.faults, latencyMs: latencyMs)
    switch (parts.first, parts.count) {
    case (nil, _) where path == "/_": return ConsoleContext.redirect("/_/")
    case (nil, _) where get: return await ConsoleAccountsPage(context: context).accountsPage()
    case ("console.css", 1) where get: return ConsoleContext.asset(ConsoleAssets.css, type: "text/css; charset=utf-8")
    case ("console.js", 1) where get:
      return ConsoleContext.asset(ConsoleAssets.js, type: "text/javascript; charset=utf-8")
    case ("inbox", 1) where get: return inbox.inboxPage()
    case ("inbox.json", 1) where get: return inbox.inboxJSON()
    case ("faults", 1) where get: return faults.faultsPage()
    case ("faults", 2) where post: return faults.faultsAction(parts[1])
    case ("create", 1) where get: return create.createPage(message: nil)
    case ("create", 1) where post: return await create.createAccount()
    case ("bulk", 1) where get: return await bulk.bulkConfirmationPage()
    case ("bulk", 1) where post: return await bulk.bulkAction()
    case ("export", 1) where get: return await transfer.exportDownload()
    case ("import", 1) where get: return transfer.importPage()
    case ("import", 1) where post: return await transfer.importAction()
    case ("delete-all", 1) where get: return await deleteAll.deleteAllPage()
    case ("delete-all", 1) where post: return await deleteAll.deleteAll()
    case ("accounts", 3) where get:
      guard let side = ConsoleSide(rawValue: parts[1]) else { break }
      return await account.accountPage(side: side, id: parts[2])
    case ("accounts", 4) where get && parts[3] == "delete":
      guard let side = ConsoleSide(rawValue: parts[1]) else { break }
      return await actions.deleteConfirmationPage(side: side, id: parts[2])
    case ("accounts", 4) where post:
      guard let side = ConsoleSide(rawValue: parts[1]) else { break }
      return await actions.accountAction(side: side, id: parts[2], action: parts[3])
    case (_, _) where !get && !post:
      return ServerResponse(status: 405, headers: [("Allow", "GET, POST")])
    default:
      break
    }
    return ConsoleContext.html(
      404, ConsoleHTML.page(title: "Not found", section: .accounts, body: "<p>No such page.</p>"))
  }
}

/// Which backend an account page or action is about.
enum ConsoleSide: String, Sendable, CaseIterable {
  case supabase, firebase

  var label: String { self == .supabase ? "Supabase" : "Firebase" }
}
