import Essentials
import HTTPServerKit
import JSONKit

/// Redirect URLs and query strings as GoTrue's Go code spells them: the app's callback with a
/// code or an error set (`prepPKCERedirectURL`, `prepErrorRedirectURL`), `url.Values.Encode`,
/// `url.QueryEscape` and `%q`. Functions of their text only, shared by the route groups.
enum GoTrueRedirects {
  /// `prepPKCERedirectURL` and the query half of `prepErrorRedirectURL`/`prepRedirectURL`: the
  /// redirect's own query with `pairs` set, re-encoded as Go's `url.Values.Encode` does.
  static func settingQuery(_ pairs: [(String, String)], on target: String) -> String {
    let base: Substring
    var query: [(String, String)]
    if let mark = target.firstIndex(of: "?") {
      base = target[..<mark]
      query = FormCoding.decode(String(target[target.index(after: mark)...])).map { ($0.name, $0.value) }
    } else {
      base = Substring(target)
      query = []
    }
    for (name, value) in pairs {
      query.removeAll { $0.0 == name }
      query.append((name, value))
    }
    return String(base) + "?" + goQueryEncode(query)
  }

  /// An error as GoTrue's redirects carry it (`prepErrorRedirectURL`): `error` named by the
  /// status where OAuth names one, then `error_code` and `error_description`.
  static func redirectError(_ error: GoTrueError) -> [(String, String)] {
    let names = [400: "invalid_request", 401: "unauthorized_client", 403: "access_denied", 500: "server_error"]
    let named = names[error.status].map { [("error", $0)] } ?? []
    return named + [("error_code", error.code), ("error_description", error.message)]
  }

  /// Go's `url.Values.Encode`: keys sorted, `QueryEscape` (space as `+`).
  static func goQueryEncode(_ pairs: [(String, String)]) -> String {
    pairs.sorted { $0.0 < $1.0 }.map { goQueryEscape($0.0) + "=" + goQueryEscape($0.1) }.joined(separator: "&")
  }

  static func goQueryEscape(_ text: String) -> String {
    FormCoding.percentEncode(text).replacingAll("%20", with: "+")
  }

  /// Go's `%q` of a plain address: in double quotes, `"` and `\` escaped.
  static func goQuoted(_ text: String) -> String {
    "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
  }
}
