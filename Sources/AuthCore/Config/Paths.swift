/// Where authsh keeps its files (XDG base directories, overridable).
package struct Paths: Sendable, Equatable {
  package var configDirectory: String
  package var stateDirectory: String

  package init(configDirectory: String, stateDirectory: String) {
    self.configDirectory = configDirectory
    self.stateDirectory = stateDirectory
  }

  /// `AUTHSH_CONFIG_DIR` or `$XDG_CONFIG_HOME/authsh` (default `~/.config/authsh`);
  /// `$XDG_STATE_HOME/authsh` (default `~/.local/state/authsh`).
  package init(environment env: [String: String]) {
    let home = env["HOME"] ?? "/tmp"
    let configHome = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
    let stateHome = env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/state"
    configDirectory = env["AUTHSH_CONFIG_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? configHome + "/authsh"
    stateDirectory = stateHome + "/authsh"
  }

  package var configFile: String { configDirectory + "/config.toml" }
  package var rcFile: String { configDirectory + "/rc" }
  package var sessionsDirectory: String { stateDirectory + "/sessions" }
  package var historyFile: String { stateDirectory + "/history" }
}
