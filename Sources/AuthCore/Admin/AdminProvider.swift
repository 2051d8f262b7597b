import JSONKit

/// One page of `user list`.
package struct UserListQuery: Sendable, Equatable {
  /// Supabase: GoTrue's substring filter on e-mail and name. Firebase: matched on the client side
  /// (its list API has no filter).
  package var filter: String?
  package var limit: Int
  /// The token of the page to read (as `user list` printed it); nil for the first page.
  package var pageToken: String?
  /// A scan on the client (Firebase with a filter) reads at most this many pages, then stops with
  /// the token to go on from (`--max-pages`); nil: the scan's own budget.
  package var maxPages: Int?
  /// Told after each page a scan on the client reads, for a progress line.
  package var scanProgress: (@Sendable (ScanProgress) -> Void)?

  package init(filter: String? = nil, limit: Int = 50, pageToken: String? = nil, maxPages: Int? = nil) {
    self.filter = filter
    self.limit = limit
    self.pageToken = pageToken
    self.maxPages = maxPages
  }

  package static func == (lhs: UserListQuery, rhs: UserListQuery) -> Bool {
    lhs.filter == rhs.filter && lhs.limit == rhs.limit && lhs.pageToken == rhs.pageToken && lhs.maxPages == rhs.maxPages
  }
}

/// How far a scan on the client has got.
package struct ScanProgress: Sendable, Equatable {
  package var pages: Int
  package var scanned: Int
  package var matches: Int

  package init(pages: Int, scanned: Int, matches: Int) {
    self.pages = pages
    self.scanned = scanned
    self.matches = matches
  }
}

package struct UserPage: Sendable, Equatable {
  package var users: [AdminUser]
  /// The number of accounts, when the backend says (Supabase `X-Total-Count`).
  package var total: Int?
  /// Pass to `--page-token` for the next page; nil on the last page.
  package var nextPageToken: String?
  /// A scan on the client that stopped at `--max-pages` before it had a full page of matches.
  package var stoppedScan: ScanProgress?

  package init(users: [AdminUser], total: Int? = nil, nextPageToken: String? = nil) {
    self.users = users
    self.total = total
    self.nextPageToken = nextPageToken
  }
}

package enum AdminLinkKind: String, Sendable, CaseIterable {
  /// Password recovery.
  case recovery
  /// Sign-up (e-mail) confirmation.
  case confirm
  /// An invitation: following it accepts the invite and lets the person set a password (Supabase).
  case invite
}

/// A link support hands over, generated without sending mail (result model `link.*`).
package struct AdminLink: Sendable, Equatable {
  package var kind: AdminLinkKind
  package var email: String
  /// Secret: whoever has it can act as the user. Registered with the redactor.
  package var url: String
  /// The one-time code inside the link, when the backend gives it separately (Supabase `email_otp`).
  package var code: String?

  package init(kind: AdminLinkKind, email: String, url: String, code: String? = nil) {
    self.kind = kind
    self.email = email
    self.url = url
    self.code = code
  }
}

/// What `diagnose` needs to know about the project, as far as the backend tells (nil: unknown).
package struct ProjectSettings: Sendable, Equatable {
  /// Supabase `GET /settings` `mailer_autoconfirm == false`.
  package var requiresEmailConfirmation: Bool?
  /// Supabase `external.email`; Firebase `signIn.email.enabled` (when readable).
  package var passwordSignInEnabled: Bool?
  /// Seconds between two mails of one kind to one address (Supabase 60 by default).
  package var mailInterval: Int?
  /// Firebase: whether the project's `mfa` config has TOTP on (nil: it does not say).
  package var totpEnabled: Bool?

  package init(
    requiresEmailConfirmation: Bool? = nil, passwordSignInEnabled: Bool? = nil, mailInterval: Int? = nil,
    totpEnabled: Bool? = nil
  ) {
    self.requiresEmailConfirmation = requiresEmailConfirmation
    self.passwordSignInEnabled = passwordSignInEnabled
    self.mailInterval = mailInterval
    self.totpEnabled = totpEnabled
  }
}

/// A change some backends cannot make, asked about before anyone is asked to confirm it.
package enum AdminChange: Sendable, Equatable {
  case signOut
  case resendConfirmation
  case disable(seconds: Int?)
  case delete(soft: Bool)
  /// `user update --meta`: metadata the person's own (Supabase's `user_metadata`).
  case userMetadata
}

/// What an emulator says about its sign-in rate limiter (`GET /emulator/v1/limits`): production
/// does not tell. Supabase limits sign-ins per client address, not per account.
package struct SignInLimitState: Sendable, Equatable {
  /// The limits apply (the emulator runs like production).
  package var enforced: Bool
  /// Client addresses whose sign-ins are refused right now, with the seconds until one is allowed.
  package var limited: [String: Int]

  package init(enforced: Bool, limited: [String: Int]) {
    self.enforced = enforced
    self.limited = limited
  }
}

/// A backend's admin API (service_role / secret key, or a Google service account). Every error
/// thrown is an `AuthError`; a missing account is `nil` from `user(_:)`, never an error.
package protocol AdminProvider: Sendable {
  var kind: ProviderKind { get }
  /// The API base shown in messages and the audit log.
  var endpoint: String { get }

  /// The account, or nil when there is none.
  func user(_ reference: UserReference) async throws -> AdminUser?
  /// The account as a change needs it (id, e-mail, confirmed, disabled), in as few requests as the
  /// backend allows: no pending mail, and on Supabase no second read for identities and factors.
  /// A bulk change reads thousands of accounts this way.
  func accountForChange(_ reference: UserReference) async throws -> AdminUser?
  func listUsers(_ query: UserListQuery) async throws -> UserPage
  /// A recovery or confirmation link, without sending mail.
  func link(_ kind: AdminLinkKind, for user: AdminUser) async throws -> AdminLink
  /// Marks the e-mail confirmed.
  func confirmEmail(_ user: AdminUser) async throws -> AdminUser
  /// Sends the confirmation mail again (the backend's resend limits apply).
  func resendConfirmation(_ user: AdminUser) async throws
  /// Disables the account; `seconds` = nil: until enabled again (Supabase only can end a ban by itself).
  func disable(_ user: AdminUser, forSeconds seconds: Int?) async throws -> AdminUser
  func enable(_ user: AdminUser) async throws -> AdminUser
  func setPassword(_ user: AdminUser, to password: String) async throws -> AdminUser
  func createUser(email: String, password: String?, confirmed: Bool, name: String?) async throws -> AdminUser
  /// `soft`: Supabase's soft delete (Firebase throws `not_supported`).
  func delete(_ user: AdminUser, soft: Bool) async throws
  /// Ends every session of the user where the backend can (`not_supported` with the alternative
  /// where it cannot).
  func signOut(_ user: AdminUser) async throws
  func settings() async throws -> ProjectSettings
  /// Changes the account's e-mail address at once (no mail to confirm it); `confirmed`: the new
  /// address counts as confirmed.
  func setEmail(_ user: AdminUser, to email: String, confirmed: Bool) async throws -> AdminUser
  /// Changes the name, metadata or claims (`not_supported` for what the backend has no place for).
  func update(_ user: AdminUser, with changes: AccountUpdate) async throws -> AdminUser
  /// The account whose pending e-mail change goes to `email` (Supabase `new_email`; Firebase on
  /// an emulator), or nil when none is found; `complete`: whether the search could see every pending
  /// change (false: a nil user proves nothing).
  func accountChangingEmail(to email: String) async throws -> (user: AdminUser?, complete: Bool)
  /// The sign-in limiter's state where an emulator tells it; nil elsewhere (never an error).
  func signInLimits() async -> SignInLimitState?
  /// The latest mail an emulator "sent" to the address; nil on real backends or when none.
  func latestMail(to email: String) async throws -> InboxMessage?
  /// Removes the account's second factors ("lost my phone"): the one named `factorId`, or all
  /// of them; answers the account as it is now.
  func resetFactors(_ user: AdminUser, factorId: String?) async throws -> AdminUser
  /// The backend's own trail for the account, newest first, entries at or after `since` (unix
  /// seconds) only; `not_supported` where the backend keeps none in its API (Firebase).
  func history(_ user: AdminUser, since: Int?) async throws -> [AccountEvent]
  /// Whether `signOut` really ends refresh tokens here: false on an emulator that keeps them
  /// working (the official Firebase emulator, and authsh's outside the like-production mode).
  func signOutEndsRefreshTokens() async -> Bool
  /// `not_supported` (with the alternative) when this backend cannot make `change` to `user`;
  /// nil when it can. Known without a request, so it is said before a confirmation is asked.
  func unsupported(_ change: AdminChange, for user: AdminUser) -> AuthError?
}

extension AdminProvider {
  package func signOutEndsRefreshTokens() async -> Bool { true }
  package func unsupported(_ change: AdminChange, for user: AdminUser) -> AuthError? { nil }
  package func accountChangingEmail(to email: String) async throws -> (user: AdminUser?, complete: Bool) {
    (nil, false)
  }
  package func signInLimits() async -> SignInLimitState? { nil }
}

/// A bearer token for an admin API (a Google OAuth access token from a service account, or the
/// emulator's `owner`). Implementations cache and refresh on their own.
package protocol AccessTokenSource: Sendable {
  func accessToken() async throws -> String
  /// The project billed for the calls (`X-Goog-User-Project`), which Google wants with user
  /// credentials; nil otherwise.
  var quotaProject: String? { get }
}

extension AccessTokenSource {
  package var quotaProject: String? { nil }
}

extension AdminProvider {
  package func accountForChange(_ reference: UserReference) async throws -> AdminUser? { try await user(reference) }
}
