import Essentials
import HTTPServerKit
import JSONKit

/// Markup for the web console. Every value that comes from an account, a mail or a request goes
/// through `text` or `attribute`: it can never become markup.
enum ConsoleHTML {
  /// `value` as element text: `& < > " '` become character references.
  static func text(_ value: String) -> String {
    var out = ""
    out.reserveCapacity(value.utf8.count)
    for character in value.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\u{0}": out += "\u{FFFD}"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// `value` inside a double-quoted attribute (the same escapes as text).
  static func attribute(_ value: String) -> String { text(value) }

  /// A link target from data (a mail's link): only `http://` and `https://` are clickable; any
  /// other scheme (`javascript:`) is nil and shows as text.
  static func safeLink(_ value: String) -> String? {
    let lower = value.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
    return value
  }

  /// A path segment or query value, percent-encoded.
  static func component(_ value: String) -> String { value.percentEncoded(keeping: "-._~") }

  /// `<a href="…">text</a>` with both escaped.
  static func link(_ href: String, _ label: String, current: Bool = false) -> String {
    let aria = current ? " aria-current=\"page\"" : ""
    return "<a href=\"\(attribute(href))\"\(aria)>\(text(label))</a>"
  }

  /// A hidden field carrying the per-process token of every POST form.
  static func tokenField(_ token: String) -> String {
    "<input type=\"hidden\" name=\"token\" value=\"\(attribute(token))\">"
  }

  /// A POST form with one submit button (and hidden fields).
  static func button(
    action: String, label: String, token: String, fields: [(String, String)] = [], danger: Bool = false
  ) -> String {
    var out = "<form method=\"post\" action=\"\(attribute(action))\" class=\"inline\">" + tokenField(token)
    for (name, value) in fields {
      out += "<input type=\"hidden\" name=\"\(attribute(name))\" value=\"\(attribute(value))\">"
    }
    let kind = danger ? " class=\"danger\"" : ""
    return out + "<button type=\"submit\"\(kind)>\(text(label))</button></form>"
  }

  /// A button that copies `value` (`console.js` shows it and does the copying; without script it
  /// stays hidden). `what` names it for a screen reader: "Copy the id".
  static func copyButton(_ value: String, what: String) -> String {
    "<button type=\"button\" class=\"copy\" data-copy=\"\(attribute(value))\" aria-label=\"Copy \(attribute(what))\" "
      + "hidden>Copy</button>"
  }

  /// An id in a `<code>` that does not wrap, with its copy button.
  static func id(_ value: String) -> String {
    "<code class=\"id\">\(text(value))</code>" + copyButton(value, what: "the id")
  }

  /// A two-column table of label → already-escaped cell markup.
  static func facts(_ rows: [(String, String)], caption: String) -> String {
    var out = "<table class=\"facts\"><caption>\(text(caption))</caption><tbody>"
    for (label, cell) in rows { out += "<tr><th scope=\"row\">\(text(label))</th><td>\(cell)</td></tr>" }
    return out + "</tbody></table>"
  }

  /// The whole document: header with the navigation, then `body` (already markup).
  static func page(title: String, section: ConsoleSection, body: String, heading: String? = nil) -> String {
    var nav = ""
    for item in ConsoleSection.allCases {
      nav += "<li>" + link(item.path, item.label, current: item == section) + "</li>"
    }
    return """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(text(title)) · authsh emulator</title>
      <link rel="stylesheet" href="/_/console.css">
      <script src="/_/console.js" defer></script>
      </head><body>
      <a class="skip" href="#main">Skip to content</a>
      <header><p class="brand">authsh emulator</p><nav aria-label="Console"><ul>\(nav)</ul></nav></header>
      <main id="main" tabindex="-1"><h1>\(text(heading ?? title))</h1>
      \(body)
      </main></body></html>
      """
  }

  /// Milliseconds since 1970 as a `<time>` element showing `2026-11-29 00:20:27 UTC`; "never" for
  /// nil.
  static func time(milliseconds: Int64?) -> String { ConsoleTime.markup(milliseconds: milliseconds) }

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

/// The console's top-level pages.
enum ConsoleSection: CaseIterable, Sendable {
  case accounts, create, inbox, faults

  var path: String {
    switch self {
    case .accounts: return "/_/"
    case .create: return "/_/create"
    case .inbox: return "/_/inbox"
    case .faults: return "/_/faults"
    }
  }

  var label: String {
    switch self {
    case .accounts: return "Accounts"
    case .create: return "Create an account"
    case .inbox: return "Inbox"
    case .faults: return "Faults and limits"
    }
  }
}
