import EmulatorFaults
import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit

/// Settings of one emulator process (`authsh emulator` flags; tests build them directly).
package struct EmulatorConfig: Sendable {
  package var host = "127.0.0.1"
  package var port = 54321
  /// Firebase project id (`demo-` ids need no real project).
  package var project = "demo-authsh"
  /// HS256 secret for Supabase tokens (GoTrue's `GOTRUE_JWT_SECRET`).
  package var jwtSecret = "super-secret-jwt-token-with-at-least-32-characters-long"
  /// Supabase: require e-mail confirmation (`GOTRUE_MAILER_AUTOCONFIRM=false`). Off by default, as the CLI stack.
  package var confirmEmail = false
  /// Firebase: improved e-mail privacy (enumeration protection). Off by default, as the official emulator.
  package var emailPrivacy = false
  /// SQLite file for users, sessions and pending codes; nil keeps everything in memory.
  package var statePath: String?
  /// bcrypt cost for stored passwords (4 is bcrypt's minimum; GoTrue uses 10).
  package var bcryptCost = 4
  /// GoTrue `GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL`, seconds; nil: GoTrue's own default 0,
  /// or the hosted projects' 10 in the like-production mode.
  package var refreshReuseInterval: Int?
  /// GoTrue `MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY` (`--mfa-rate-limit`): second-factor challenges
  /// and, separately, verifications a minute per address (bursts of 30), in either mode; nil: none
  /// in the default mode, the hosted 15 like production.
  package var mfaRateLimit: Double?
  /// GoTrue `GOTRUE_SMTP_MAX_FREQUENCY`, seconds between two mails of one kind to one user.
  package var mailFrequencySeconds = 60
  /// Access / ID token lifetime, seconds.
  package var tokenLifetime = 3600
  /// Firebase API key printed at start (any non-empty key is accepted, as the official emulator does).
  package var firebaseAPIKey = "fake-api-key"
  /// GoTrue `SITE_URL`: where mail links send the browser when the request names no `redirect_to`.
  package var siteURL = "http://127.0.0.1:3000"
  /// GoTrue `GOTRUE_MAILER_OTP_EXP`: how long mailed codes and links stay valid, seconds (the hosted
  /// and Supabase CLI default, which `diagnose` uses too).
  package var otpLifetime = ProductionLimits.Supabase.linkLifetime
  /// Delay added to every request except the `/emulator/v1/` control routes (`--latency-ms`).
  package var latencyMs = 0
  /// Seconds a connection may stay open without sending a complete request (`--idle-timeout`).
  package var idleTimeout = 30
  /// GoTrue `GOTRUE_SESSIONS_TIMEBOX`: a session ends this many seconds after sign-in (0 = never).
  package var sessionTimebox = 0
  /// GoTrue `GOTRUE_SESSIONS_INACTIVITY_TIMEOUT`: a session ends when not refreshed for this many
  /// seconds (0 = never).
  package var sessionInactivityTimeout = 0
  /// At most this many sessions per user; a new sign-in ends the oldest (keeps memory bounded when
  /// one account signs in over and over, as load tests do).
  package var maxSessionsPerUser = 100
  /// Faults active from the start (`--fault`); `/emulator/v1/faults` changes them at run time.
  package var faults: [EmulatorFault] = []
  /// Behave like the hosted products (`--like-production`); `/emulator/v1/config` switches it at run time.
  package var likeProduction = false
  /// Supabase, like production: the built-in mail service (2 mails an hour, team addresses only)
  /// or custom SMTP (`--smtp custom`, `[emulator] smtp = "custom"`).
  package var smtp = EmulatorSMTP.builtIn
  /// Supabase, like production with the built-in mail service: the organisation's team addresses,
  /// the only ones that receive mail (`--team EMAIL…`, `[emulator] team = […]`).
  package var team: [String] = []
  /// Supabase: GoTrue's CAPTCHA protection (`--captcha`, `[emulator] captcha = true`): sign-up,
  /// sign-in, recovery, resend and OTP calls need `gotrue_meta_security.captcha_token` unless sent
  /// with an admin key. Any non-empty token passes (there is no CAPTCHA service to ask).
  package var captcha = false
  /// GoTrue `GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED` (`--anonymous-sign-ins`): `POST /signup`
  /// with neither e-mail nor phone signs in an anonymous user. Off, as in the Supabase CLI.
  package var anonymousSignIns = false
  /// GoTrue `URI_ALLOW_LIST`: where mail links may send the browser besides the site URL and
  /// loopback addresses (globs: `*` within a host label or path segment, `**` across them).
  package var redirectAllowList = [
    "http://localhost", "http://localhost:*", "http://localhost/**", "http://localhost:*/**",
  ]

  package init() {}
}

/// The emulator's notion of time; tests move it by hand.
package protocol EmulatorClock: Sendable {
  func now() -> Date
}

package struct SystemEmulatorClock: EmulatorClock {
  package init() {}
  package func now() -> Date { Date() }
}

/// A durable store of JSON documents by table and key. The in-memory state is the truth while the
/// process runs; every acknowledged change is written here *before* the response is sent, so a
/// `kill -9` loses nothing that a client saw succeed.
extension DocumentStore {
  package var closeProblem: String? { nil }
}

package protocol DocumentStore: Sendable {
  func put(_ table: String, key: String, _ document: JSON) throws
  func delete(_ table: String, key: String) throws
  func deleteAll(_ table: String) throws
  func loadAll(_ table: String) throws -> [(key: String, document: JSON)]
  /// Applies several changes at once: all or nothing where the store can (SQLite: one transaction).
  func apply(_ changes: [DocumentChange]) throws
  /// Notes a row that was loaded but could not be decoded (reported at start-up, never dropped silently).
  func noteUnreadable(_ table: String, key: String)
  /// Rows that could not be read at load, keys by table.
  var unreadableRows: [String: [String]] { get }
  /// Flushes and closes the store at a normal stop; later writes fail.
  func close()
  /// Why the close could not make the store self-contained (a failed checkpoint), or nil.
  var closeProblem: String? { get }
}

/// One write in a batch for `DocumentStore.apply`.
package enum DocumentChange: Sendable {
  case put(table: String, key: String, document: JSON)
  case delete(table: String, key: String)
}

extension DocumentStore {
  /// One change after the other (stores without transactions).
  package func apply(_ changes: [DocumentChange]) throws {
    for change in changes {
      switch change {
      case .put(let table, let key, let document): try put(table, key: key, document)
      case .delete(let table, let key): try delete(table, key: key)
      }
    }
  }

  package func noteUnreadable(_ table: String, key: String) {}
  package var unreadableRows: [String: [String]] { [:] }
  package func close() {}

  /// False for `NullDocumentStore`: callers can skip encoding documents nobody keeps.
  package var isPersistent: Bool { !(self is NullDocumentStore) }
}

/// Used when no `--state` file is given.
package struct NullDocumentStore: DocumentStore {
  package init() {}
  package func put(_ table: String, key: String, _ document: JSON) throws {}
  package func delete(_ table: String, key: String) throws {}
  package func deleteAll(_ table: String) throws {}
  package func loadAll(_ table: String) throws -> [(key: String, document: JSON)] { [] }
}

/// One mail the emulator "sent" (it never sends mail; `GET /emulator/v1/outbox?email=` lists them).
package struct OutboxMessage: Sendable, Equatable {
  package enum Side: String, Sendable { case supabase, firebase }
  package var side: Side
  /// `signup`, `recovery`, `magiclink`, `email_change`, `invite` (Supabase) or the Firebase
  /// requestType: `PASSWORD_RESET`, `VERIFY_EMAIL`, …
  package var kind: String
  package var email: String
  /// The code a person would type (Supabase 6-digit OTP; Firebase oobCode).
  package var code: String
  /// The link in the mail.
  package var link: String
  package var time: Date

  package init(side: Side, kind: String, email: String, code: String, link: String, time: Date) {
    self.side = side
    self.kind = kind
    self.email = email
    self.code = code
    self.link = link
    self.time = time
  }
}

/// One side of the emulator (Supabase or Firebase). Returns nil for requests it does not serve.
package protocol EmulatorAPI: Sendable {
  func handle(_ request: ServerRequest) async -> ServerResponse?
}
