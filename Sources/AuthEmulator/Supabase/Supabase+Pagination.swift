import HTTPServerKit
import JSONKit

/// GoTrue's offset pagination (`pagination.go` `paginate`, `addPaginationHeaders`), shared by
/// `GET /admin/users` and `GET /admin/audit`.
struct Pagination {
  let page: Int
  let perPage: Int
  let offset: Int

  /// `page` (default 1) and `per_page` (default 50): strconv.ParseUint, per_page 0 refused.
  init(_ request: ServerRequest) throws {
    func number(_ name: String, default value: Int) throws -> Int {
      guard let text = request.query(name), !text.isEmpty else { return value }
      let digits = text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
      guard digits, let parsed = UInt64(text) else {
        throw GoTrueError.validation(
          "Bad Pagination Parameters: strconv.ParseUint: parsing \(JSON.string(text).compactText): "
            + (digits ? "value out of range" : "invalid syntax"))
      }
      // Past Int64 the real server's offset arithmetic wraps; refuse it here instead.
      guard let number = Int(exactly: parsed) else {
        throw GoTrueError.validation("Bad Pagination Parameters: \(name) is out of range")
      }
      return number
    }
    page = max(try number("page", default: 1), 1)
    perPage = try number("per_page", default: 50)
    guard perPage > 0 else {
      throw GoTrueError.validation("Bad Pagination Parameters: per_page must be greater than 0")
    }
    let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
    guard !overflow else {
      throw GoTrueError.validation("Bad Pagination Parameters: page * per_page is out of range")
    }
    self.offset = offset
  }

  /// The JSON answer with `Link` (next, last; `page` moved last) and `X-Total-Count`.
  func response(_ request: ServerRequest, total: Int, body: [UInt8]) -> ServerResponse {
    let totalPages = total / perPage + (total % perPage > 0 ? 1 : 0)
    func link(_ target: Int) -> String {
      var items = request.queryItems.filter { $0.name != "page" }.map { ($0.name, $0.value) }
      items.append(("page", String(target)))
      return "<" + request.path + "?" + GoTrueRedirects.goQueryEncode(items) + ">"
    }
    var header = ""
    if totalPages > page { header += link(page + 1) + "; rel=\"next\", " }  // page < totalPages ≤ total: no overflow
    header += link(totalPages) + "; rel=\"last\""
    return ServerResponse(
      status: 200,
      headers: [
        ("Content-Type", "application/json"), ("Link", header),
        ("X-Total-Count", String(total)),
      ], body: body)
  }
}
