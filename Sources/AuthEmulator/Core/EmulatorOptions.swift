import Essentials
/// The flags of `authsh emulator`, turned into an `EmulatorConfig`.
public struct EmulatorOptions: Sendable {
  public var config: EmulatorConfig
  /// `--help` / `-h` was given: print `usage` and exit 0.
  public var help = false
  /// What is printed once it listens: the banner, `KEY=VALUE` lines (`--print-env`) or one JSON
  /// line (`--json`), for CI jobs that start it with `--port 0`.
  public var ready: ReadyFormat = .banner
  /// `--seed FILE`: accounts to create at start (read and checked by `EmulatorSeed.load`).
  public var seedPath: String?

  public enum ReadyFormat: Sendable, Equatable { case banner, env, json }

  public init(config: EmulatorConfig = EmulatorConfig(), help: Bool = false) {
    self.config = config
    self.help = help
  }

  public static let usage = """
    usage: authsh emulator [--host 127.0.0.1] [--port 54321] [--project demo-authsh] [--state FILE]
                           [--like-production] [--confirm-email] [--email-privacy] [--jwt-secret S]
                           [--latency-ms N] [--fault "METHOD PATH STATUS|PRESET[xN]"]...
                           [--bcrypt-cost N] [--refresh-reuse-interval S] [--mail-frequency S]
                           [--idle-timeout S] [--session-timebox S] [--session-inactivity-timeout S]
                           [--seed FILE] [--anonymous-sign-ins] [--smtp built-in|custom] [--team EMAIL]...
                           [--captcha] [--print-env | --json]

      --host H                   address to bind (default 127.0.0.1, loopback only)
      --port N                   port (default 54321; 0 = any free port)
      --project ID               Firebase project id (default demo-authsh)
      --state FILE               keep users and sessions in this SQLite file across restarts
      --like-production          behave like the hosted products: Supabase e-mail confirmation, the
                                 mail quota (2 an hour on the built-in service, 30 with --smtp custom),
                                 mail only to --team addresses on the built-in service, per-address
                                 limits on /token, /verify, /signup, /recover, /resend, /otp, PUT /user,
                                 a 10 s refresh-token reuse interval; Firebase enumeration protection,
                                 refresh tokens ended by a password change, production's error envelopes,
                                 reset codes valid for one hour, 100 new accounts an hour per address,
                                 the daily mail quotas (switch at run time: PUT /emulator/v1/config
                                 {"like_production": true})
      --smtp built-in|custom     Supabase, like production: the project's mail service (default built-in)
      --team EMAIL               Supabase, like production, built-in mail: an address that receives mail
                                 (repeat it, or separate addresses with commas); others get
                                 400 email_address_not_authorized
      --captcha                  Supabase: CAPTCHA protection; anon-key calls need a captcha_token
      --confirm-email            Supabase: require e-mail confirmation before sign-in
      --email-privacy            Firebase: e-mail enumeration protection
      --jwt-secret S             HS256 secret of the Supabase tokens and keys
      --latency-ms N             delay every request by N ms
      --fault SPEC               inject a fault, e.g. "POST /auth/v1/token 429x3", "GET /auth/v1/user html502";
                                 presets: html502, truncated_json, drop, rate_limit, server_error; xN = N requests
                                 (default 1, x0 = until cleared); METHOD * matches any
      --bcrypt-cost N            bcrypt cost of stored passwords (default 4; GoTrue uses 10)
      --refresh-reuse-interval S GoTrue refresh-token reuse interval in seconds (default 0; 10 like production)
      --mail-frequency S         seconds between two mails of one kind to one user (default 60)
      --idle-timeout S           close connections that send no complete request for S seconds (default 30)
      --session-timebox S        Supabase sessions end S seconds after sign-in (default 0 = never)
      --session-inactivity-timeout S
                                 Supabase sessions end when not refreshed for S seconds (default 0 = never)
      --seed FILE                create the accounts of FILE at start, one JSON object a line (see `help emulator`);
                                 accounts already there (same e-mail or id) are kept as they are
      --anonymous-sign-ins       Supabase: POST /signup with neither e-mail nor phone signs in an anonymous user
      --print-env                once listening, print KEY=VALUE lines (SUPABASE_URL, …) instead of the banner
      --json                     once listening, print one JSON line {"schema":1,"event":"ready",…}
    """

  /// Parses the arguments after `emulator`. `--flag value` and `--flag=value` both work.
  public static func parse(arguments: [String]) throws -> EmulatorOptions {
    var options = EmulatorOptions()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      var flag = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        flag = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      func value() throws -> String {
        if let inline { return inline }
        guard let next = rest.popFirst() else { throw EmulatorOptionsError("\(flag) needs a value") }
        return next
      }
      func number(_ range: ClosedRange<Int>) throws -> Int {
        let text = try value()
        guard let parsed = Int(text), range.contains(parsed) else {
          throw EmulatorOptionsError("\(flag) expects a number in \(range.lowerBound)...\(range.upperBound), got \"\(text)\"")
        }
        return parsed
      }
      func noValue() throws {
        if inline != nil { throw EmulatorOptionsError("\(flag) takes no value") }
      }
      switch flag {
      case "-h", "--help":
        try noValue()
        options.help = true
      case "--host": options.config.host = try nonEmpty(flag, try value())
      case "--port": options.config.port = try number(0...65535)
      case "--project": options.config.project = try nonEmpty(flag, try value())
      case "--state": options.config.statePath = try nonEmpty(flag, try value())
      case "--seed": options.seedPath = try nonEmpty(flag, try value())
      case "--anonymous-sign-ins":
        try noValue()
        options.config.anonymousSignIns = true
      case "--captcha":
        try noValue()
        options.config.captcha = true
      case "--smtp":
        let text = try value()
        guard let smtp = EmulatorSMTP(rawValue: text) else {
          throw EmulatorOptionsError("--smtp expects built-in or custom, got \"\(text)\"")
        }
        options.config.smtp = smtp
      case "--team":
        let addresses = try value().split(separator: ",").map { $0.trimmingSpaces }
        guard !addresses.isEmpty, addresses.allSatisfy({ $0.contains("@") }) else {
          throw EmulatorOptionsError("--team expects e-mail addresses, e.g. --team ada@example.com")
        }
        options.config.team += addresses
      case "--jwt-secret": options.config.jwtSecret = try nonEmpty(flag, try value())
      case "--confirm-email":
        try noValue()
        options.config.confirmEmail = true
      case "--email-privacy":
        try noValue()
        options.config.emailPrivacy = true
      case "--print-env", "--json":
        try noValue()
        let format: ReadyFormat = flag == "--json" ? .json : .env
        if options.ready != .banner && options.ready != format {
          throw EmulatorOptionsError("give --print-env or --json, not both")
        }
        options.ready = format
      case "--like-production":
        try noValue()
        options.config.likeProduction = true
      case "--latency-ms": options.config.latencyMs = try number(0...600_000)
      case "--fault":
        do {
          options.config.faults.append(try EmulatorFault.parse(spec: try value()))
        } catch let error as EmulatorFaultError {
          throw EmulatorOptionsError("--fault: \(error.message)")
        }
      case "--bcrypt-cost": options.config.bcryptCost = try number(4...31)
      case "--refresh-reuse-interval": options.config.refreshReuseInterval = try number(0...86400)
      case "--mail-frequency": options.config.mailFrequencySeconds = try number(0...86400)
      case "--idle-timeout": options.config.idleTimeout = try number(1...86400)
      case "--session-timebox": options.config.sessionTimebox = try number(0...31_536_000)
      case "--session-inactivity-timeout": options.config.sessionInactivityTimeout = try number(0...31_536_000)
      default:
        throw EmulatorOptionsError("unknown flag \(argument)")
      }
    }
    return options
  }

  private static func nonEmpty(_ flag: String, _ text: String) throws -> String {
    guard !text.isEmpty else { throw EmulatorOptionsError("\(flag) needs a non-empty value") }
    return text
  }
}

/// A usage error in the emulator's flags (exit 64).
public struct EmulatorOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
