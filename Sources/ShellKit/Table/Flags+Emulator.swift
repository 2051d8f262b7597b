import EmulatorFaults
import Essentials

/// Flags of `authsh emulator`, each decoded once by the table's parser (a bad `--fault` is a usage
/// error pointing at its word, as a port out of bounds is); the executable maps the values onto the
/// emulator's configuration.

extension FlagKey where Value == String {
  package static let emulatorHost = nonEmpty(
    FlagSpec("--host", value: "HOST", kind: .host, "Address to bind (default 127.0.0.1)"))
  package static let project = nonEmpty(
    FlagSpec("--project", value: "ID", kind: .text, "Firebase project id (default demo-authsh)"))
  package static let state = nonEmpty(
    FlagSpec("--state", value: "FILE", kind: .path, "Keep users, sessions and codes in this SQLite file"))
  package static let seed = nonEmpty(
    FlagSpec(
      "--seed", value: "FILE", kind: .path, "Create the accounts of FILE (JSON lines) at start; existing ones are kept")
  )
  package static let jwtSecret = nonEmpty(
    FlagSpec("--jwt-secret", value: "SECRET", kind: .key, secret: true, "HS256 secret for Supabase tokens"))
  package static let faultsHost = text(
    FlagSpec("--host", value: "HOST", kind: .host, "The emulator's address (default 127.0.0.1)"))
  package static let faultsURL = text(
    FlagSpec("--url", value: "URL", kind: .url, "The emulator's URL, instead of --host and --port"))
  package static let smtp = text(
    FlagSpec(
      "--smtp", value: "SERVICE", kind: .text, choices: ["built-in", "custom"],
      "Supabase, like production: the built-in mail service (2 an hour, team only; default) or custom SMTP (30 an hour)"
    ))
}

extension FlagKey where Value == Bool {
  package static let confirmEmail = toggle(
    FlagSpec("--confirm-email", "Supabase: require e-mail confirmation before sign-in"))
  package static let emailPrivacy = toggle(
    FlagSpec("--email-privacy", "Firebase: turn on e-mail enumeration protection"))
  package static let emulatorLikeProduction = toggle(
    FlagSpec(
      "--like-production", "Behave like the hosted products: confirmation, quotas, rate limits, enumeration protection")
  )
  package static let printEnv = toggle(
    FlagSpec("--print-env", "Once listening, print NAME=VALUE lines (port, URLs, keys) instead of the banner"))
  package static let readyJSON = toggle(
    FlagSpec("--json", "Once listening, print one JSON line {\"schema\":1,\"event\":\"ready\",…}"))
  package static let anonymousSignIns = toggle(
    FlagSpec("--anonymous-sign-ins", "Supabase: sign-up with neither e-mail nor phone makes an anonymous user"))
  package static let captcha = toggle(
    FlagSpec(
      "--captcha", "Supabase: CAPTCHA protection on; calls without gotrue_meta_security.captcha_token are refused"))
}

extension FlagKey where Value == Int {
  package static let emulatorPort = number(
    FlagSpec(
      "--port", value: "PORT", kind: .number, bounds: 0...65_535,
      "Port to listen on (default 54321; 0 picks a free one)"))
  package static let bcryptCost = number(
    FlagSpec("--bcrypt-cost", value: "N", kind: .number, bounds: 4...31, "bcrypt cost for stored passwords (default 4)")
  )
  package static let refreshReuseInterval = number(
    FlagSpec(
      "--refresh-reuse-interval", value: "SECONDS", kind: .number, bounds: 0...86_400,
      "Supabase refresh-token reuse interval (default 0)"))
  package static let mfaRateLimit = number(
    FlagSpec(
      "--mfa-rate-limit", value: "N", kind: .number, bounds: 1...100_000,
      "Supabase factor challenges, and verifications, a minute per address (default none; 15 like production)"))
  package static let mailFrequency = number(
    FlagSpec(
      "--mail-frequency", value: "SECONDS", kind: .number, bounds: 0...86_400,
      "Seconds between two mails of one kind to one user (default 60)"))
  package static let idleTimeout = number(
    FlagSpec(
      "--idle-timeout", value: "SECONDS", kind: .number, bounds: 1...86_400,
      "Close connections idle this long without a complete request (default 30)"))
  package static let sessionTimebox = number(
    FlagSpec(
      "--session-timebox", value: "SECONDS", kind: .number, bounds: 0...31_536_000,
      "Supabase sessions end this long after sign-in (default 0 = never)"))
  package static let sessionInactivityTimeout = number(
    FlagSpec(
      "--session-inactivity-timeout", value: "SECONDS", kind: .number, bounds: 0...31_536_000,
      "Supabase sessions end when not refreshed this long (default 0 = never)"))
  package static let latency = number(
    FlagSpec("--latency-ms", value: "MS", kind: .number, bounds: 0...600_000, "Delay every answer"))
  package static let faultsPort = number(
    FlagSpec("--port", value: "PORT", kind: .number, bounds: 1...65_535, "The emulator's port (default 54321)"))
}

extension FlagKey where Value == EmulatorFault {
  package static let fault = decoded(
    FlagSpec("--fault", value: "SPEC", kind: .text, repeatable: true, "Inject a fault: 'METHOD PATH STATUS|PRESET[xN]'")
  ) { text in
    do {
      return .success(try EmulatorFault.parse(spec: text))
    } catch {
      return .failure(UsageError("--fault: \((error as? EmulatorFaultError)?.message ?? "\(error)")"))
    }
  }
}

extension FlagKey where Value == [String] {
  /// Addresses, repeated or separated by commas (`--team ada@example.com,bob@example.com`).
  package static let team = decoded(
    FlagSpec(
      "--team", value: "EMAIL", kind: .email, repeatable: true,
      "Supabase, like production: a team address the built-in mail service delivers to")
  ) { text in
    let addresses = text.split(separator: ",").map { $0.trimmingSpaces }
    guard !addresses.isEmpty, addresses.allSatisfy({ $0.contains("@") }) else {
      return .failure(UsageError("--team expects e-mail addresses, e.g. --team ada@example.com"))
    }
    return .success(addresses)
  }
}
