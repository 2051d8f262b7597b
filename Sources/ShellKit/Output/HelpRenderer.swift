import Essentials

/// Help text, from the command table only.
package enum HelpRenderer {
  package static func overview(surface: Surfaces) -> String {
    var lines: [String] = []
    if surface.contains(.oneShot) {
      lines += [
        "authsh — sign in, sign up and reset passwords on Supabase Auth and Firebase Authentication",
        "",
        "Usage:",
        "  authsh [FLAGS] COMMAND [ARGS]     run one command",
        "  authsh                            interactive shell (on a terminal; reads a script from a pipe)",
        "  authsh run FILE.auth…             run scripts with assertions (CI smoke tests)",
        "  authsh emulator                   serve both backends offline on one loopback port",
      ]
    } else {
      lines += ["Commands (Tab completes; 'help COMMAND' explains one):"]
    }
    for group in CommandGroup.allCases {
      let specs = CommandTable.all.filter { $0.group == group && !$0.surfaces.isDisjoint(with: surface) }
      guard !specs.isEmpty else { continue }
      lines += ["", group.rawValue + ":"]
      let width = specs.map { usageHead($0).count }.max() ?? 0
      for spec in specs {
        lines.append("  " + usageHead(spec).padded(to: width) + "  " + spec.summary)
      }
    }
    if surface.contains(.oneShot) {
      lines += ["", "Flags:"] + flagLines(CommandTable.globalFlags)
      lines += [
        "",
        "Password sources (signup, login, reset confirm): --password VALUE, --password-env VAR, --password-stdin,",
        "or a prompt with echo off when standard input is a terminal.",
        "",
        "Environment: SUPABASE_URL, SUPABASE_ANON_KEY, FIREBASE_API_KEY, FIREBASE_PROJECT_ID,",
        "FIREBASE_AUTH_EMULATOR_HOST, AUTHSH_PROFILE, AUTHSH_CONFIG_DIR, AUTHSH_HISTFILE, AUTHSH_CREDENTIAL_STORE,",
        "NO_COLOR.",
        "Config: $XDG_CONFIG_HOME/authsh/config.toml ([profiles.NAME] with provider, url, key_env, project_id).",
        "",
        "Exit codes: 0 ok · 1 command or assertion failed · 2 script error · 3 backend unreachable,",
        "timeout or server error · 4 not signed in / session expired · 64 usage · 74 output not writable ·",
        "78 configuration error · 130 interrupted ('authsh help errors' lists the error codes)",
        "",
        "Run 'authsh help COMMAND' for a command's arguments, flags and examples.",
      ]
    }
    return lines.joined(separator: "\n")
  }

  package static func command(_ spec: CommandSpec, surface: Surfaces) -> String {
    var lines = [
      "Usage: " + (surface.contains(.oneShot) ? "authsh " : "") + spec.usage(for: surface), "", spec.summary + ".",
    ]
    if let note = availabilityNote(spec.surfaces) { lines += ["", note] }
    if !spec.discussion.isEmpty { lines += ["", spec.discussion] }
    if !spec.arguments.isEmpty {
      lines += ["", "Arguments:"]
      let width = spec.arguments.map(\.name.count).max() ?? 0
      for argument in spec.arguments {
        let choices = argument.choices.isEmpty ? "" : " (\(argument.choices.joined(separator: ", ")))"
        lines.append("  " + argument.name.padded(to: width) + "  " + argument.summary + choices)
      }
    }
    let flags = InvocationParser.flags(of: spec, surface: surface)
    if !flags.isEmpty { lines += ["", "Flags:"] + flagLines(flags) }
    if !spec.examples.isEmpty { lines += ["", "Examples:"] + spec.examples.map { "  " + $0 } }
    return lines.joined(separator: "\n")
  }

  /// Where a command works, when that is not everywhere.
  static func availabilityNote(_ surfaces: Surfaces) -> String? {
    switch surfaces {
    case .repl: return "Works only in the interactive shell (authsh on a terminal)."
    case .interactive: return "Works only in the interactive shell and in .auth scripts, not as authsh COMMAND."
    case .oneShot: return "Works only from your system shell (bash, zsh), as authsh COMMAND."
    default: return nil
    }
  }

  static func usageHead(_ spec: CommandSpec) -> String {
    ([spec.name]
      + spec.arguments.map { argument in
        let text = argument.name + (argument.variadic ? "…" : "")
        return argument.optional ? "[\(text)]" : text
      }).joined(separator: " ")
  }

  static func flagLines(_ flags: [FlagSpec]) -> [String] {
    let heads = flags.map { $0.name + ($0.valueName.map { " " + $0 } ?? "") }
    let width = heads.map(\.count).max() ?? 0
    return zip(heads, flags).map { "  " + $0.padded(to: width) + "  " + $1.summary }
  }
}
