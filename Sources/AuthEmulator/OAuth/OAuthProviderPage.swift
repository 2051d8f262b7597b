import HTTPServerKit

/// The provider's side of a browser sign-in ("Sign in with Google"), played by the emulator as the
/// Firebase Emulator Suite's auth widget does: the accounts this provider already vouched for on
/// this side, each a button, and a form to add one (an address and a name). Both backends' flows
/// end here; what the choice posts (`fields` and `email`, `name`, `sub`) goes to `action`, and the
/// backend's handler ends the round trip as production does. Every value is escaped.
struct OAuthProviderPage {
  struct Account {
    var subject: String
    var email: String
    var name: String?
  }

  /// The provider as the app named it (`google`, `github.com`).
  var provider: String
  /// Where the round trip returns (the app's callback), shown so a person sees who asks.
  var returnsTo: String
  var accounts: [Account]
  /// Where the choice is posted, with the fields that carry the flow.
  var action: String
  var fields: [(String, String)]
  /// Where "Cancel" goes (the app's callback with the provider's `access_denied`).
  var cancel: String

  /// `google.com` → Google.
  var providerName: String {
    let bare = provider.split(separator: ".").first.map(String.init) ?? provider
    let known = ["github": "GitHub", "gitlab": "GitLab", "linkedin_oidc": "LinkedIn", "workos": "WorkOS"]
    return known[bare] ?? bare.prefix(1).uppercased() + bare.dropFirst()
  }

  var html: String {
    let h = ConsoleHTML.self
    let hidden = fields.map { "<input type=\"hidden\" name=\"\(h.attribute($0.0))\" value=\"\(h.attribute($0.1))\">" }
      .joined()
    var body = "<h1>Sign in with \(h.text(providerName))</h1>"
    body +=
      "<p class=\"note\">This page stands in for \(h.text(providerName)) (authsh emulator). "
      + "It returns to <code>\(h.text(returnsTo))</code>.</p>"
    if accounts.isEmpty {
      body += "<p>No \(h.text(providerName)) account has signed in here yet.</p>"
    } else {
      body += "<h2>Choose an account</h2><ul class=\"accounts\">"
      for account in accounts {
        let label = account.name.map { "\($0) <\(account.email)>" } ?? account.email
        body +=
          "<li><form method=\"post\" action=\"\(h.attribute(action))\">\(hidden)"
          + "<input type=\"hidden\" name=\"sub\" value=\"\(h.attribute(account.subject))\">"
          + "<input type=\"hidden\" name=\"email\" value=\"\(h.attribute(account.email))\">"
          + "<input type=\"hidden\" name=\"name\" value=\"\(h.attribute(account.name ?? ""))\">"
          + "<button type=\"submit\" name=\"choose\">\(h.text(label.isEmpty ? account.subject : label))</button>"
          + "</form></li>"
      }
      body += "</ul>"
    }
    body +=
      "<h2>Add an account</h2><form method=\"post\" action=\"\(h.attribute(action))\" id=\"add\">\(hidden)"
      + "<label>E-mail <input type=\"email\" name=\"email\" id=\"email\" required autocomplete=\"off\"></label>"
      + "<label>Name <input type=\"text\" name=\"name\" id=\"name\" autocomplete=\"off\"></label>"
      + "<button type=\"submit\" id=\"add-account\">Sign in as this account</button></form>"
      + "<p><a href=\"\(h.attribute(cancel))\" id=\"cancel\">Cancel</a></p>"
    return """
      <!doctype html><html lang="en"><head><meta charset="utf-8">\
      <meta name="viewport" content="width=device-width, initial-scale=1">\
      <title>Sign in with \(h.text(providerName)) · authsh emulator</title><style>\
      body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}\
      label{display:block;margin:.5rem 0}input{width:100%;box-sizing:border-box;padding:.4rem}\
      ul{list-style:none;padding:0}li button{width:100%;text-align:left;padding:.6rem;margin:.2rem 0}\
      .note{color:#555}code{overflow-wrap:anywhere}</style></head><body>\(body)</body></html>
      """
  }

  var response: ServerResponse {
    ServerResponse(
      status: 200,
      headers: [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"),
        ("X-Frame-Options", "DENY"), ("Cache-Control", "no-store"), ("Referrer-Policy", "same-origin"),
      ],
      body: Array(html.utf8))
  }

  /// The posted form of the page, decoded.
  static func form(_ request: ServerRequest) -> [String: String] {
    var values: [String: String] = [:]
    for item in FormCoding.decode(String(decoding: request.body, as: UTF8.self)) { values[item.name] = item.value }
    return values
  }

  /// A choice posted from another site (a page that posts to this one to sign a visitor in as
  /// someone) is refused: a browser names the page's origin on every form post.
  static func isCrossSite(_ request: ServerRequest) -> Bool {
    guard let origin = request.header("Origin"), origin != "null" else { return false }
    let host = request.header("Host") ?? ""
    return origin != "http://" + host && origin != "https://" + host
  }
}
