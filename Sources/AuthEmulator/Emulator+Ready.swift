import Essentials
import JSONKit
import Synchronization

/// What `authsh emulator --print-env` and `--json` print once listening: the chosen port and the
/// keys, for a CI job that starts the emulator with `--port 0` and reads them back.
extension Emulator {
  /// The `--json` ready line's version; fields are only ever added within it.
  package static let readySchema = 1

  /// `NAME=VALUE` pairs, in the order printed. Values never need shell quoting (URLs, host:port,
  /// JWTs, ids), so each line works with `export`, `set -a; . FILE` and `>> "$GITHUB_ENV"`.
  package var environment: [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = [
      ("AUTHSH_EMULATOR_URL", baseURL),
      ("AUTHSH_EMULATOR_PORT", String(port)),
    ]
    if consoleServed { pairs.append(("AUTHSH_EMULATOR_CONSOLE_URL", consoleURL)) }
    pairs += [
      ("SUPABASE_URL", baseURL),
      ("SUPABASE_ANON_KEY", anonKey),
      ("SUPABASE_SERVICE_ROLE_KEY", serviceRoleKey),
      // Supabase's newer secret key, as the Supabase CLI prints it (admin access as `apikey` alone).
      ("SUPABASE_SECRET_KEY", SupabaseAPIKeys.secret),
    ]
    pairs += [
      ("FIREBASE_AUTH_EMULATOR_HOST", firebaseHost),
      ("FIREBASE_API_KEY", config.firebaseAPIKey),
      ("FIREBASE_PROJECT_ID", config.project),
      // firebase-admin and the Google client libraries read the project from these.
      ("GCLOUD_PROJECT", config.project),
      ("GOOGLE_CLOUD_PROJECT", config.project),
    ]
    return pairs
  }

  /// `--print-env`: one `NAME=VALUE` line per variable.
  package func environmentText() -> String {
    environment.map { "\($0.name)=\(Self.shellSafe($0.value))" }.joined(separator: "\n") + "\n"
  }

  /// `--json`: `{"schema":1,"event":"ready",…}` on one line.
  package func readyLine() -> String {
    var supabase = JSONObject()
    supabase["url"] = .string(baseURL)
    supabase["auth_url"] = .string(supabaseURL)
    supabase["anon_key"] = .string(anonKey)
    supabase["service_role_key"] = .string(serviceRoleKey)
    supabase["secret_key"] = .string(SupabaseAPIKeys.secret)
    supabase["confirm_email"] = .bool(config.confirmEmail)
    var firebase = JSONObject()
    firebase["emulator_host"] = .string(firebaseHost)
    firebase["api_key"] = .string(config.firebaseAPIKey)
    firebase["project_id"] = .string(config.project)
    firebase["email_privacy"] = .bool(config.emailPrivacy)
    var object = JSONObject()
    object["schema"] = .int(Self.readySchema)
    object["event"] = "ready"
    object["url"] = .string(baseURL)
    object["host"] = .string(config.host)
    object["port"] = .int(port)
    if consoleServed { object["console_url"] = .string(consoleURL) }
    object["state"] = .optional(config.statePath)
    object["supabase"] = .object(supabase)
    object["firebase"] = .object(firebase)
    object["outbox"] = .string(baseURL + "/emulator/v1/outbox")
    object["faults"] = .string(baseURL + "/emulator/v1/faults")
    object["environment"] = .object(JSONObject(environment.map { ($0.name, JSON.string($0.value)) }))
    if let seeded = seedResult.withLock({ $0 }) {
      object["seeded"] = [
        "file": .optional(seeded.file), "created": .int(seeded.created), "already_there": .int(seeded.alreadyThere),
      ]
    }
    return JSON.object(object).compactText + "\n"
  }

  /// A value as a POSIX shell word: as is when it has only safe characters, else single-quoted.
  static func shellSafe(_ value: String) -> String {
    let safe = value.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
          || "-_.:/@%+=,".unicodeScalars.contains(scalar))
    }
    if safe && !value.isEmpty { return value }
    return "'" + value.replacingAll("'", with: "'\\''") + "'"
  }
}
