/// One page of accounts read for `user export`.
package struct AccountPage: Sendable {
  package var accounts: [PortableAccount]
  /// Where the next page starts (opaque to callers); nil on the last page.
  package var next: String?

  package init(accounts: [PortableAccount], next: String?) {
    self.accounts = accounts
    self.next = next
  }
}

/// Reads every account of a backend a page at a time, as portable records (`user export`):
/// through the admin API, or straight from Supabase's database (`--db`). Memory stays bounded by
/// one page whatever the number of accounts.
package protocol AccountReader: Sendable {
  /// What the records lack and why, said once on standard error ("Supabase's admin API does not
  /// return password hashes; pass --db URL"). Known after the first page.
  var notices: [String] { get async }
  /// Said once on standard error before the first record when the output can hold secrets
  /// (password hashes, Firebase's signer key); nil when it cannot.
  var privacyNotice: String? { get }
  /// The page that starts at `token` (nil: the first).
  func page(after token: String?, size: Int) async throws -> AccountPage
  /// Ends the read (closes a database connection); called once, also after a failure.
  func close() async
}

extension AccountReader {
  package var privacyNotice: String? { "The export holds password hashes: keep it private." }
}

/// An admin provider that can export its accounts with what the admin API gives of their passwords.
package protocol AccountExporting: Sendable {
  /// A reader of every account; `hashConfig` (Firebase: `--hash-config FILE`) stands in for the
  /// project's own, which the provider reads from the project config when it is nil.
  func accountReader(hashConfig: FirebaseHashConfig?) async throws -> any AccountReader
}
