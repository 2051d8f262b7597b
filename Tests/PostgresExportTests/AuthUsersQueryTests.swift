import AuthCore
import JSONKit
import Testing

@testable import PostgresExport

@Suite struct AuthUsersQueryTests {
  let query = AuthUsersQuery(
    userColumns: ["id", "email", "encrypted_password", "deleted_at", "banned_until"], identityColumns: [],
    hasFactors: false)

  /// The token and the page size travel as parameters, never in the SQL text.
  @Test func pagesAreKeysetQueriesWithParameters() {
    let first = query.page(after: nil, size: 1000)
    #expect(first.parameters == ["1000"])
    #expect(first.sql.hasSuffix(" FROM auth.users u WHERE u.deleted_at IS NULL ORDER BY u.id LIMIT $1::bigint"))
    let next = query.page(after: "11111111-1111-4111-8111-111111111111", size: 1000)
    #expect(next.parameters == ["11111111-1111-4111-8111-111111111111", "1000"])
    #expect(next.sql.contains("WHERE u.deleted_at IS NULL AND u.id > $1::uuid ORDER BY u.id LIMIT $2::bigint"))
    #expect(!next.sql.contains("11111111"))
    // Columns this database lacks are NULL (or false), not errors.
    #expect(next.sql.contains("NULL::text") && next.sql.contains("false::text"))
  }

  @Test func aRowBecomesAPortableAccount() throws {
    let row: [String?] = [
      "11111111-1111-4111-8111-111111111111", "ada@example.com", "$2a$10$hash", "2024-01-02T03:04:05.000000Z", nil, nil,
      "2024-01-01T00:00:00.000000Z", nil, #"{"full_name":"Ada"}"#,
      #"{"provider":"email","providers":["email"],"role":"admin"}"#,
      "false", #"[{"provider":"email","id":"11111111-1111-4111-8111-111111111111","email":"ada@example.com"}]"#, "[]",
      "false",
    ]
    let account = try AuthUsersQuery.account(row)
    #expect(account.id == "11111111-1111-4111-8111-111111111111" && account.email == "ada@example.com")
    #expect(account.passwordHash == "$2a$10$hash" && account.emailVerified == true && account.disabled == false)
    #expect(account.displayName == "Ada" && account.providers == ["email"] && account.identities?.count == 1)
    #expect(account.appMetadata?["role"]?.string == "admin" && account.appMetadata?["providers"] == nil)
  }

  @Test func aShortRowIsMalformed() {
    #expect(throws: AuthError.self) { try AuthUsersQuery.account(["only-an-id"]) }
  }
}
