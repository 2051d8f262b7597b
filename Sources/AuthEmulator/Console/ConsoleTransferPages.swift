import AuthCore
import Essentials
import HTTPServerKit
import JSONKit

/// The import and export pages: moving accounts in and out of one side as `authsh user import` and
/// `authsh user export` do, with the CLI's own readers and importers over the admin API.
///
/// `GET /_/export?side=…&format=jsonl|csv|firebase[&tenant=…]`: every account of the side as
/// `authsh user export` writes it (the same reader over the admin API, the same records), as a
/// download. A GET: it changes nothing, and another site that makes the browser ask cannot read
/// the answer (`Cross-Origin-Resource-Policy: same-origin`).
struct ConsoleTransferPages: ConsolePage {
  let context: ConsoleContext

  /// Accounts a page, as `user export` reads them.
  static let exportPageSize = 1000

  /// The file's name, its type, and what the CLI names the format.
  static func exportFile(_ side: ConsoleSide, _ format: ExportFormat, tenant: String?) -> (name: String, type: String) {
    let stem = side.rawValue + (tenant.map { "-" + $0.filter { $0.isLetter || $0.isNumber || $0 == "-" } } ?? "")
    switch format {
    case .jsonl: return (stem + "-users.jsonl", "application/x-ndjson; charset=utf-8")
    case .csv: return (stem + "-users.csv", "text/csv; charset=utf-8")
    case .firebase: return (stem + "-users.json", "application/json; charset=utf-8")
    }
  }

  func exportDownload() async -> ServerResponse {
    guard let side = parameter("side").flatMap(ConsoleSide.init(rawValue:)) else {
      return Self.problem(400, "Choose a backend.", back: "/_/")
    }
    guard let format = ExportFormat(rawValue: parameter("format") ?? "jsonl") else {
      return Self.problem(400, "Choose jsonl, csv or firebase.", back: "/_/?side=" + side.rawValue)
    }
    let tenant = side == .firebase ? tenant : nil
    let text: String
    do {
      text = try await Self.export(from: context.adminProvider(side, tenant: tenant), format: format)
    } catch let error as AuthError {
      return Self.problem(502, error.message, back: "/_/?side=" + side.rawValue)
    } catch {
      return Self.problem(500, "The export failed: \(error).", back: "/_/?side=" + side.rawValue)
    }
    let file = Self.exportFile(side, format, tenant: tenant)
    return ServerResponse(
      status: 200,
      headers: [
        ("Content-Type", file.type), ("Content-Disposition", "attachment; filename=\"\(file.name)\""),
      ] + Self.securityHeaders,
      body: Array(text.utf8))
  }

  /// What `user export --format FORMAT` writes to its file for every account `provider` lists
  /// (the header, each record as `ExportFormat.record` writes it, the footer).
  static func export(from provider: any AdminProvider, format: ExportFormat) async throws -> String {
    guard let exporting = provider as? any AccountExporting else {
      throw AuthError(.notSupported, message: "This backend cannot export its accounts.")
    }
    let reader = try await exporting.accountReader(hashConfig: nil)
    do {
      let text = try await records(reader, format: format)
      await reader.close()
      return text
    } catch {
      await reader.close()
      throw error
    }
  }

  private static func records(_ reader: any AccountReader, format: ExportFormat) async throws -> String {
    var text = format.header
    var token: String?
    var first = true
    repeat {
      let page = try await reader.page(after: token, size: exportPageSize)
      for account in page.accounts {
        text += format.record(account, first: first)
        first = false
      }
      if let next = page.next, next == token {
        throw AuthError(.malformedResponse, message: "The server repeated a page token.")
      }
      token = page.next
    } while token != nil
    return text + format.footer
  }

  /// "Import accounts…" and the export's three formats, under the list.
  static func transferLinks(side: ConsoleSide, tenant: String?) -> String {
    typealias H = ConsoleHTML
    let query = "side=\(side.rawValue)" + (tenant.map { "&tenant=" + H.component($0) } ?? "")
    let formats: [(ExportFormat, String)] = [(.jsonl, "JSON lines"), (.csv, "CSV"), (.firebase, "Firebase JSON")]
    let exports = formats.map { format, label in
      "<a href=\"\(H.attribute("/_/export?\(query)&format=\(format.rawValue)"))\" id=\"export-\(format.rawValue)\" "
        + "download>\(label)</a>"
    }
    return "<p id=\"transfer\"><a href=\"\(H.attribute("/_/import?" + query))\" id=\"import\">Import accounts…</a>"
      + " · Export as " + exports.joined(separator: ", ") + "</p>"
  }

  // MARK: - Import

  // Import a file from the page: `GET /_/import` asks for it (a `multipart/form-data` upload), the
  // POST of the file shows `user import --dry-run`'s summary and the first accounts (nothing is
  // sent), and the POST of that page's button creates them through the emulator's own admin API
  // with `user import`'s importers (`POST /admin/users`, `accounts:batchCreate`).

  static let uploadTooLarge =
    "The file is larger than the console takes (512 KB); nothing was created. "
    + "Import a larger file with `authsh user import FILE`."

  /// Accounts the preview lists.
  static let previewRows = 20

  private var importSide: ConsoleSide? { parameter("side").flatMap(ConsoleSide.init(rawValue:)) }

  private func importBackURL(_ side: ConsoleSide) -> String {
    "/_/?side=\(side.rawValue)" + (side == .firebase ? tenant.map { "&tenant=" + ConsoleHTML.component($0) } ?? "" : "")
  }

  /// "Supabase", "the Firebase project", "Firebase tenant T".
  private func importBackend(_ side: ConsoleSide) -> String {
    side == .supabase ? "Supabase" : tenant.map { "Firebase tenant \($0)" } ?? "the Firebase project"
  }

  private static let consentFlags: [(name: String, label: String)] = [
    ("without-passwords", "Import accounts whose password cannot come along, without it (--without-passwords)"),
    ("drop-factors", "Import accounts with second factors, without them (--drop-factors)"),
    ("confirm-unverified", "Import unconfirmed Firebase addresses into Supabase confirmed (--confirm-unverified)"),
  ]

  private var consent: ImportConsent {
    ImportConsent(
      withoutPasswords: field("without-passwords") == "yes", dropFactors: field("drop-factors") == "yes",
      confirmUnverified: field("confirm-unverified") == "yes")
  }

  private func sideFields(_ side: ConsoleSide) -> String {
    var out = "<input type=\"hidden\" name=\"side\" value=\"\(side.rawValue)\">"
    if side == .firebase, let tenant {
      out += "<input type=\"hidden\" name=\"tenant\" value=\"\(ConsoleHTML.attribute(tenant))\">"
    }
    return out
  }

  /// `GET /_/import?side=…`: the file and the losses to accept.
  func importPage() -> ServerResponse {
    typealias H = ConsoleHTML
    guard let side = importSide else { return Self.problem(400, "Choose a backend.", back: "/_/") }
    var body = "<p>Reads the file as <code>authsh user import --dry-run</code> does: authsh's JSON lines or CSV, "
    body += "Firebase's <code>auth:import</code> JSON or <code>auth:export</code> CSV, or a <code>\\copy</code> of "
    body += "<code>auth.users</code>. The next page shows what would be created; nothing is created before you "
    body += "confirm there.</p>"
    body += "<form method=\"post\" action=\"/_/import\" enctype=\"multipart/form-data\" id=\"import-form\">"
    body += H.tokenField(EmulatorConsole.token) + sideFields(side)
    body += "<label for=\"import-file\">Account file (at most 512 KB)</label>"
    body += "<input type=\"file\" id=\"import-file\" name=\"file\" required>"
    body += "<fieldset><legend>Accept these losses</legend>"
    for (name, label) in Self.consentFlags {
      body += "<label><input type=\"checkbox\" name=\"\(name)\" value=\"yes\"> \(H.text(label))</label>"
    }
    body += "</fieldset><button type=\"submit\">Preview the import</button> "
    body += H.link(importBackURL(side), "Back to the list") + "</form>"
    return Self.html(200, H.page(title: "Import accounts into \(importBackend(side))", section: .accounts, body: body))
  }

  /// The uploaded file's bytes, or those the preview sent back (base64) with its confirmation.
  private var importBytes: [UInt8]? {
    if field("confirm") == "yes" { return field("data").flatMap(Base64.decode) }
    guard let boundary = ConsoleMultipart.boundary(request),
      let parts = ConsoleMultipart.parts(request.body, boundary: boundary)
    else { return nil }
    return parts.first { $0.name == "file" }?.bytes
  }

  /// `POST /_/import`: the preview of an upload, or the import its button confirms.
  func importAction() async -> ServerResponse {
    guard let side = importSide else { return Self.problem(400, "Choose a backend.", back: "/_/") }
    let again = "/_/import?side=\(side.rawValue)" + (tenant.map { "&tenant=" + ConsoleHTML.component($0) } ?? "")
    guard let bytes = importBytes, !bytes.isEmpty else {
      return Self.problem(400, "Choose a file to import; nothing was created.", back: again)
    }
    let kind: ProviderKind = side == .supabase ? .supabase : .firebase
    let plan: ConsoleImportPlan
    switch ConsoleImportPlan.make(bytes, target: kind, consent: consent, now: Int(now.timeIntervalSince1970)) {
    case .success(let made): plan = made
    case .failure(let refusal): return Self.problem(refusal.status, refusal.message, back: again)
    }
    guard field("confirm") == "yes" else { return importPreview(side, plan, bytes: bytes) }
    guard let importer = context.adminProvider(side, tenant: side == .firebase ? tenant : nil) as? any AccountImporter
    else {
      return Self.problem(500, "This backend cannot import accounts.", back: again)
    }
    let outcomes = await plan.run(importer)
    let summary = ImportSummary.text(
      outcomes, total: plan.checks.count, format: plan.format, source: "the file", backend: importBackend(side))
    var body = "<pre id=\"import-summary\">\(ConsoleHTML.visible(summary))</pre>"
    body += "<p>\(ConsoleHTML.link(importBackURL(side), "Back to the list"))</p>"
    let imported = outcomes.filter { $0.status == .imported }.count
    let title = "Imported \(imported) of \(plan.checks.count) accounts"
    return Self.html(200, ConsoleHTML.page(title: title, section: .accounts, body: body))
  }

  /// What the import would do, the first accounts, and the button that does it.
  private func importPreview(_ side: ConsoleSide, _ plan: ConsoleImportPlan, bytes: [UInt8]) -> ServerResponse {
    typealias H = ConsoleHTML
    let tally = plan.tally
    let summary = ImportSummary.dryRun(tally, format: plan.format, source: "the file", backend: importBackend(side))
    var body = "<p class=\"warning\">Nothing has been created yet. \(tally.total) accounts in the file "
    body += "(\(H.text(plan.format.rawValue))): \(tally.sent) would be created, \(tally.held.count) held back, "
    body += "\(tally.refused.count) refused; accounts already there are skipped.</p>"
    body += "<pre id=\"import-summary\">\(H.visible(summary))</pre>"
    body += "<div class=\"table-wrap\"><table id=\"import-preview\"><caption>The first "
    body += "\(min(Self.previewRows, plan.checks.count)) accounts of the file</caption><thead><tr>"
    body += "<th scope=\"col\">#</th><th scope=\"col\">E-mail</th><th scope=\"col\">Name</th>"
    body += "<th scope=\"col\">Id</th><th scope=\"col\">What happens</th></tr></thead><tbody>"
    for (index, checked) in plan.checks.prefix(Self.previewRows).enumerated() {
      let account = checked.account
      let fate = ConsoleImportPlan.fate(checked)
      body += "<tr><td>\(index + 1)</td><td>\(H.visible(account.email ?? ""))</td>"
      body += "<td>\(H.visible(account.displayName ?? ""))</td><td>\(H.visible(account.id ?? ""))</td>"
      body += "<td>\(H.text(fate.word))" + (fate.why.isEmpty ? "" : ": \(H.visible(fate.why))") + "</td></tr>"
    }
    body += "</tbody></table></div>"
    if tally.sent > 0 {
      body += "<form method=\"post\" action=\"/_/import\" id=\"import-confirm\">" + H.tokenField(EmulatorConsole.token)
      body += sideFields(side) + "<input type=\"hidden\" name=\"confirm\" value=\"yes\">"
      body += "<input type=\"hidden\" name=\"data\" value=\"\(H.attribute(Base64.encode(bytes)))\">"
      for (name, _) in Self.consentFlags where field(name) == "yes" {
        body += "<input type=\"hidden\" name=\"\(name)\" value=\"yes\">"
      }
      let noun = tally.sent == 1 ? "account" : "accounts"
      body += "<button type=\"submit\">Import \(tally.sent) \(noun)</button> "
      body += H.link(importBackURL(side), "No, back to the list") + "</form>"
    } else {
      body += "<p>No account of the file would be created. \(H.link(importBackURL(side), "Back to the list"))</p>"
    }
    let title = "Import \(tally.total) accounts into \(importBackend(side))?"
    return Self.html(200, H.page(title: title, section: .accounts, body: body))
  }
}
