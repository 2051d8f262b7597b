import Essentials
import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: import a file, after its dry run")
struct ConsoleImportTests {
  static let boundary = "----authshTestBoundary7MA4YWxk"

  /// A form with a file, as a browser sends it.
  static func upload(
    _ emu: TestEmulator, side: String, file: String, token: String? = EmulatorConsole.token,
    extra: [(String, String)] = []
  ) async -> (status: Int, text: String) {
    var body = ""
    var fields = [("side", side)] + extra
    if let token { fields.insert(("token", token), at: 0) }
    for (name, value) in fields {
      body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
    }
    body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"users.jsonl\"\r\n"
    body += "Content-Type: application/octet-stream\r\n\r\n\(file)\r\n--\(boundary)--\r\n"
    let request = ConsoleSafetyTests.request(
      "POST", "/_/import", form: body,
      headers: [
        ("Origin", "http://127.0.0.1:9099"), ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
      ])
    let response = await emu.emulator.handle(request)
    return (response.status, String(decoding: response.body, as: UTF8.self))
  }

  /// The confirmation the preview's button sends.
  static func confirm(_ emu: TestEmulator, preview: String, token: String = EmulatorConsole.token) async -> (
    status: Int, text: String
  ) {
    let data =
      preview.components(separatedBy: "name=\"data\" value=\"").dropFirst().first?
      .components(separatedBy: "\"").first ?? ""
    let side = preview.contains("name=\"side\" value=\"firebase\"") ? "firebase" : "supabase"
    let form = "token=\(token)&side=\(side)&confirm=yes&data=" + data.percentEncoded(keeping: "-._~")
    let request = ConsoleSafetyTests.request(
      "POST", "/_/import", form: form, headers: [("Origin", "http://127.0.0.1:9099")])
    let response = await emu.emulator.handle(request)
    return (response.status, String(decoding: response.body, as: UTF8.self))
  }

  static func supabaseEmails(_ emu: TestEmulator) async -> [String] {
    let list = await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey).json
    return (list["users"]?.array ?? []).compactMap { $0["email"]?.string }.sorted()
  }

  static let file = """
    {"email":"ada@x.io","email_verified":true,"display_name":"<img src=x onerror=alert(1)>\\u001b]8;;http://evil\\u0007"}
    {"email":"bob@x.io","email_verified":true}
    {"email":"ADA@x.io"}

    """

  @Test("the preview counts, lists and refuses without creating anything; its button creates the accounts")
  func supabasePreviewThenImport() async throws {
    let emu = try ConsoleBulkTests.emulator()
    let form = await ConsoleBulkTests.get(emu, "/_/import?side=supabase")
    #expect(form.status == 200)
    #expect(form.text.contains("enctype=\"multipart/form-data\"") && form.text.contains("type=\"file\""))
    let preview = await Self.upload(emu, side: "supabase", file: Self.file)
    #expect(preview.status == 200)
    #expect(preview.text.contains("3 accounts in the file (jsonl): 2 would be created, 0 held back, 1 refused"))
    #expect(preview.text.contains("the same id, address or phone number is earlier in the file"))
    #expect(!preview.text.contains("<img src=x") && preview.text.contains("&lt;img src=x onerror=alert(1)&gt;"))
    #expect(!preview.text.contains("\u{1b}") && preview.text.contains("\\e]8;;http://evil\\u{7}"))
    #expect(preview.text.contains(">Import 2 accounts</button>"))
    #expect(await Self.supabaseEmails(emu).isEmpty)
    #expect(await Self.confirm(emu, preview: preview.text, token: "forged").status == 403)
    #expect(await Self.supabaseEmails(emu).isEmpty)
    let done = await Self.confirm(emu, preview: preview.text)
    #expect(done.status == 200)
    #expect(done.text.contains("Imported 2 of 3 accounts into Supabase"))
    #expect(await Self.supabaseEmails(emu) == ["ada@x.io", "bob@x.io"])
    // Again: both are there now, skipped.
    let again = await Self.confirm(emu, preview: preview.text)
    #expect(again.text.contains("skipped, already there: 2"))
  }

  @Test("Firebase: the accounts are created through batchCreate, names and all")
  func firebaseImport() async throws {
    let emu = try ConsoleBulkTests.emulator()
    let preview = await Self.upload(emu, side: "firebase", file: Self.file)
    #expect(preview.status == 200)
    let done = await Self.confirm(emu, preview: preview.text)
    #expect(done.text.contains("Imported 2 of 3 accounts into the Firebase project"))
    let found = await ConsoleBulkTests.firebase(emu, "accounts:lookup", ["email": ["ada@x.io"]])
    #expect(found["users"]?[0]?["displayName"]?.string == "<img src=x onerror=alert(1)>\u{1b}]8;;http://evil\u{7}")
  }

  @Test("a malformed line, an empty file, an over-size file and a post without the token are refused")
  func refusals() async throws {
    let emu = try ConsoleBulkTests.emulator()
    let malformed = await Self.upload(emu, side: "supabase", file: "{\"email\":\"a@x.io\"}\n{\"email\": nope}\n")
    #expect(malformed.status == 400 && malformed.text.contains("line 2"))
    #expect(malformed.text.contains("nothing was created"))
    let big = String(repeating: "{\"email\":\"a@x.io\"}\n", count: 30_000)
    let tooLarge = await Self.upload(emu, side: "supabase", file: big)
    #expect(tooLarge.status == 413 && tooLarge.text.contains("512 KB"))
    var overLimit = ConsoleSafetyTests.request("POST", "/_/import", headers: [("Origin", "http://127.0.0.1:9099")])
    overLimit.bodyTooLarge = true
    let refusedBody = await emu.emulator.handle(overLimit)
    #expect(refusedBody.status == 413)
    #expect(String(decoding: refusedBody.body, as: UTF8.self).contains("larger than the console takes"))
    #expect(await Self.upload(emu, side: "supabase", file: "\n").status == 400)
    #expect(await Self.upload(emu, side: "supabase", file: Self.file, token: nil).status == 403)
    #expect(await Self.upload(emu, side: "supabase", file: Self.file, token: "forged").status == 403)
    #expect(await Self.supabaseEmails(emu).isEmpty)
  }
}
