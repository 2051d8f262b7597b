import AuthCore
import Foundation
import HTTPServerKit
import JSONKit
import Providers
import Testing

@testable import AuthEmulator
@testable import ShellKit

/// The emulator as `authsh` reaches it over HTTP: every request through the whole router.
struct RouterTransport: HTTPTransport {
  let emulator: Emulator

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var uri = request.url.path(percentEncoded: true)
    if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
    var headers: [(name: String, value: String)] = [("Host", "127.0.0.1:9099")]
    headers += request.headers.filter { $0.name.lowercased() != "host" }
    let response = await emulator.handle(
      ServerRequest(method: request.method, uri: uri, headers: headers, body: request.body ?? []))
    return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
  }
}

@Suite("Web console: export a side as `user export` writes it")
struct ConsoleExportTests {
  /// What `authsh user export --format FORMAT` writes for the emulator's accounts: the CLI's
  /// provider (as `authsh --emulator` makes it) and its export loop.
  static func cliExport(_ emu: TestEmulator, _ side: ConsoleSide, _ format: ExportFormat) async throws -> String {
    let host = "127.0.0.1:9099"
    let target: Target
    let credential: AdminCredential
    if side == .supabase {
      target = Target(provider: .supabase, profile: "emulator", url: "http://\(host)/auth/v1", key: emu.anonKey)
      credential = .supabaseServiceRole(emu.serviceRoleKey)
    } else {
      target = Target(
        provider: .firebase, profile: "emulator", url: "http://\(host)/identitytoolkit.googleapis.com/v1",
        key: "key", projectId: ConsoleBulkTests.project, firebaseEmulatorHost: host)
      credential = .firebaseEmulatorOwner
    }
    let provider = AdminProviderFactory.make(
      target, credential: credential, transport: RouterTransport(emulator: emu.emulator))
    let reader = try await (provider as? any AccountExporting)!.accountReader(hashConfig: nil)
    let written = Guarded("")
    let output = ExportOutput(
      write: { text in
        written.update { $0 += text }
        return nil
      }, note: { _ in }, toTerminal: false)
    let summary = try await UserExportCommand.export(from: reader, format: format, filter: nil, output: output)
    #expect(summary.stopped == nil)
    return written.update { $0 }
  }

  @Test("each side in each format: the download is the CLI's export, byte for byte, with a file name")
  func sameBytes() async throws {
    let emu = try ConsoleBulkTests.emulator()
    _ = try await ConsoleBulkTests.supabaseUser(emu, "one@x.io")
    _ = await emu.send(
      "POST", "admin/users",
      json: [
        "email": "two@x.io", "password": "correct-horse-1", "user_metadata": ["full_name": "<b>Two</b>\u{1b}[2J"],
      ],
      bearer: emu.serviceRoleKey)
    _ = await ConsoleBulkTests.firebase(
      emu, "accounts", ["email": "fb@x.io", "password": "correct-horse-1", "displayName": "Fire\u{1b}]8;;x"])
    _ = await ConsoleBulkTests.firebase(emu, "accounts", ["email": "fb2@x.io"])
    for side in ConsoleSide.allCases {
      for format in ExportFormat.allCases {
        let response = await emu.emulator.handle(
          ConsoleSafetyTests.request("GET", "/_/export?side=\(side.rawValue)&format=\(format.rawValue)"))
        #expect(response.status == 200)
        let body = String(decoding: response.body, as: UTF8.self)
        let cli = try await Self.cliExport(emu, side, format)
        #expect(body == cli, "\(side) \(format)")
        #expect(body.contains(side == .supabase ? "two@x.io" : "fb2@x.io"))
        let disposition = response.headers.first { $0.name == "Content-Disposition" }?.value ?? ""
        #expect(disposition.hasPrefix("attachment; filename=\"\(side.rawValue)-users."))
      }
    }
    #expect(await emu.emulator.handle(ConsoleSafetyTests.request("GET", "/_/export?side=x")).status == 400)
    #expect(
      await emu.emulator.handle(ConsoleSafetyTests.request("GET", "/_/export?side=supabase&format=xml")).status == 400)
    let list = await ConsoleBulkTests.get(emu, "/_/?side=supabase")
    #expect(list.text.contains("href=\"/_/export?side=supabase&amp;format=jsonl\" id=\"export-jsonl\" download>"))
    #expect(list.text.contains("href=\"/_/import?side=supabase\" id=\"import\">Import accounts…</a>"))
  }
}
