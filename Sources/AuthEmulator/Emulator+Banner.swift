import JSONKit
import Synchronization

/// What `authsh emulator` prints on start, and the keys it hands out.
extension Emulator {
  /// `exp` of the handed-out keys: the one of the well-known `supabase start` demo keys (2032).
  static let keyExpiry = 1_983_812_996

  /// A JWT like the Supabase CLI's keys: `{"iss":"supabase-demo","role":ROLE,"exp":…}`, HS256.
  /// With the default secret these are byte for byte the CLI's demo keys.
  package static func key(role: String, secret: String) -> String {
    EmulatorJWT.signHS256(["iss": "supabase-demo", "role": .string(role), "exp": .int(keyExpiry)], secret: secret)
  }

  /// `SUPABASE_ANON_KEY` (role `anon`).
  package var anonKey: String { Self.key(role: "anon", secret: config.jwtSecret) }
  /// The admin key (role `service_role`): never ship it to clients.
  package var serviceRoleKey: String { Self.key(role: "service_role", secret: config.jwtSecret) }

  /// The start-up text: URLs, keys, and `export` lines ready to paste. Call after `start()`.
  package func banner() -> String {
    let state = config.statePath.map { "state in \($0)" } ?? "state in memory"
    let confirm = config.confirmEmail || mode.likeProduction ? "on" : "off"
    let privacy = config.emailPrivacy || mode.likeProduction ? "on" : "off"
    var lines = [
      "authsh emulator: Supabase Auth + Firebase Auth on \(baseURL) (\(state))",
      "",
      "  Supabase API URL     \(baseURL)",
      "  Supabase Auth URL    \(supabaseURL)",
      "  anon key             \(anonKey)",
      "  service_role key     \(serviceRoleKey)",
      "  publishable key      \(SupabaseAPIKeys.publishable)",
      "  secret key           \(SupabaseAPIKeys.secret)",
      "  e-mail confirmation  \(confirm)",
      "",
      "  Firebase host        \(firebaseHost)",
      "  Firebase API key     \(config.firebaseAPIKey)",
      "  Firebase project     \(config.project)",
      "  e-mail privacy       \(privacy)",
      "",
      "  Web console          \(consoleServed ? consoleURL : "off (served only on a loopback --host)")",
      "  Outbox               \(baseURL)/emulator/v1/outbox?email=ADDRESS",
      "  Faults               \(baseURL)/emulator/v1/faults",
    ]
    if mode.likeProduction {
      lines.append("  Mode                 like production (\(baseURL)/emulator/v1/config switches it)")
      let team = mode.team.isEmpty ? "no --team address: none" : mode.team.joined(separator: ", ")
      lines.append(
        mode.smtp == .custom
          ? "  Mail                 custom SMTP: 30 an hour to any address"
          : "  Mail                 built-in: 2 an hour, only to the team (\(team))")
    }
    if mode.captcha {
      lines.append("  CAPTCHA              on (Supabase: calls need gotrue_meta_security.captcha_token)")
    }
    if config.latencyMs > 0 { lines.append("  Latency              \(config.latencyMs) ms on every request") }
    if config.anonymousSignIns { lines.append("  Anonymous sign-ins   on (Supabase)") }
    if let seeded = seedResult.withLock({ $0 }) {
      lines.append("  Seed                 \(seeded.summary)" + (seeded.file.map { " from \($0)" } ?? ""))
    }
    for fault in config.faults { lines.append("  Fault                \(fault.jsonValue.compactText)") }
    lines += [
      "",
      "export SUPABASE_URL=\(baseURL)",
      "export SUPABASE_ANON_KEY=\(anonKey)",
      // The support commands (`authsh user …`, `diagnose`) need the admin key.
      "export SUPABASE_SERVICE_ROLE_KEY=\(serviceRoleKey)",
      "export FIREBASE_AUTH_EMULATOR_HOST=\(firebaseHost)",
      "export FIREBASE_API_KEY=\(config.firebaseAPIKey)",
      "export FIREBASE_PROJECT_ID=\(config.project)",
    ]
    return lines.joined(separator: "\n") + "\n"
  }
}
