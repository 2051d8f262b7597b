import AuthCore
import Essentials
import HTTPServerKit
import JSONKit

/// `GET /_/export?side=…&format=jsonl|csv|firebase[&tenant=…]`: every account of the side as
/// `authsh user export` writes it (the same reader over the admin API, the same records), as a
/// download. A GET: it changes nothing, and another site that makes the browser ask cannot read
/// the answer (`Cross-Origin-Resource-Policy: same-origin`).
extension EmulatorConsole {
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
      text = try await Self.export(from: adminProvider(side, tenant: tenant), format: format)
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
}

extension EmulatorConsole {
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
}

extension ConsoleHTML {
  /// `text`, with the control characters of a file's values (an escape sequence's ESC, a bidi
  /// override) shown as `\e` or `\u{7}`, as `user export` shows them on a terminal, instead of passed on; line breaks and tabs stay.
  static func visible(_ value: String) -> String {
    var out = ""
    for scalar in value.unicodeScalars {
      let code = scalar.value
      let hidden =
        (code < 0x20 && code != 0x0A && code != 0x09) || (0x7F...0x9F).contains(code)
        || (0x202A...0x202E).contains(code) || (0x2066...0x2069).contains(code) || code == 0x200E || code == 0x200F
      if code == 0x1B {
        out += "\\e"
      } else if hidden {
        out += "\\u{" + String(code, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return text(out)
  }
}
