import Essentials
import HTTPServerKit
import JSONKit

/// `/_/inbox`: every mail and one-time code of both backends, newest first. The page is complete
/// without script; `console.js` polls `/_/inbox.json` and redraws it as mails arrive. It needs only
/// the outbox; the account page shows its mails with the same cells.
struct ConsoleInboxPage: Sendable {
  let outbox: Outbox

  static let inboxLimit = 500

  var newestMails: [OutboxMessage] { Array(outbox.messages().suffix(Self.inboxLimit).reversed()) }

  static func mailMilliseconds(_ mail: OutboxMessage) -> Int64 {
    Int64((mail.time.timeIntervalSince1970 * 1000).rounded(.down))
  }

  /// The mail's time as a `<time>` element.
  static func mailTime(_ mail: OutboxMessage) -> String { ConsoleTime.markup(milliseconds: mailMilliseconds(mail)) }

  /// The link as a clickable anchor when it is http(s), else as text; with a copy button.
  static func mailLink(_ link: String) -> String {
    guard !link.isEmpty else { return "" }
    let copy = ConsoleHTML.copyButton(link, what: "the link")
    guard let safe = ConsoleHTML.safeLink(link) else { return ConsoleHTML.text(link) + copy }
    return ConsoleHTML.link(safe, link) + copy
  }

  /// A one-time code with its copy button.
  static func codeCell(_ code: String) -> String {
    code.isEmpty ? "" : "<code>\(ConsoleHTML.text(code))</code>" + ConsoleHTML.copyButton(code, what: "the code")
  }

  func inboxPage() -> ServerResponse {
    typealias H = ConsoleHTML
    let mails = newestMails
    var body = "<p id=\"inbox-status\" role=\"status\" aria-live=\"polite\">\(mails.count) message(s)</p>"
    body += "<div class=\"table-wrap\"><table id=\"inbox\"><caption>Mails and codes, newest first"
    body += " (updates by itself)</caption><thead><tr><th scope=\"col\">Time</th><th scope=\"col\">Backend</th>"
    body += "<th scope=\"col\">To</th><th scope=\"col\">Kind</th><th scope=\"col\">Link</th>"
    body += "<th scope=\"col\">Code</th></tr></thead><tbody>"
    for mail in mails {
      body += "<tr><td>\(Self.mailTime(mail))</td><td>\(H.text(mail.side.rawValue))</td>"
      body += "<td>\(H.text(mail.email))</td><td>\(H.text(mail.kind))</td><td>\(Self.mailLink(mail.link))</td>"
      body += "<td>\(Self.codeCell(mail.code))</td></tr>"
    }
    body += "</tbody></table></div>"
    return ConsoleContext.html(200, H.page(title: "Inbox", section: .inbox, body: body))
  }

  func inboxJSON() -> ServerResponse {
    let messages = newestMails.map { mail -> JSON in
      [
        "time": .string(ConsoleTime.text(milliseconds: Self.mailMilliseconds(mail))),
        "iso": .string(ConsoleTime.iso(milliseconds: Self.mailMilliseconds(mail))), "side": .string(mail.side.rawValue),
        "email": .string(mail.email),
        "kind": .string(mail.kind), "link": .string(mail.link), "code": .string(mail.code),
      ]
    }
    return ConsoleContext.json(["messages": .array(messages)])
  }
}
