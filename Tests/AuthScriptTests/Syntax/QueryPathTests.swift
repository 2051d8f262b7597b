import Testing

@testable import AuthScript

/// Queries over the support commands' results: `diagnosis.findings[0].code` is `findings.0.code`.
@Suite struct QueryPathTests {
  @Test func bracketIndexesAreDotSegments() {
    #expect(Query.pathSegments("diagnosis.findings[0].code") == ["diagnosis", "findings", "0", "code"])
    #expect(Query.pathSegments("users[12]") == ["users", "12"])
    #expect(Query.pathSegments("user.methods[0]") == ["user", "methods", "0"])
    #expect(Query.pathSegments("notes.0") == ["notes", "0"])
    #expect(Query.pathSegments("a[x]") == ["a[x]"], "not an index: left as written, then reported invalid")
    #expect(Query.pathSegments("a[]") == ["a[]"])
  }

  @Test func theCheckerKnowsTheSupportResults() {
    for path in [
      "user.confirmed", "user.disabled", "user.last_sign_in_at", "user.methods.0", "diagnosis.findings.0.code",
      "link.url", "users.3.user.email", "total", "next_page_token", "user.pending_mail.link",
    ] {
      #expect(QuerySchema.problem(with: Query.pathSegments(path)) == nil, "\(path)")
    }
    #expect(QuerySchema.problem(with: ["diagnosis", "finding"])?.suggestion == "findings")
  }

  @Test func aBracketQueryParsesAndAnInvalidOneIsReported() {
    let ok = Parser.parseQuery(
      Token(
        text: "diagnosis.findings[0].code", raw: "diagnosis.findings[0].code", quoted: false,
        range: SourceRange(line: 1, offsets: 0, 1)))
    #expect((try? ok.get())?.segments == ["diagnosis", "findings", "0", "code"])
    let bad = Parser.parseQuery(
      Token(text: "a[x]", raw: "a[x]", quoted: false, range: SourceRange(line: 1, offsets: 0, 1)))
    #expect((try? bad.get()) == nil)
  }
}
