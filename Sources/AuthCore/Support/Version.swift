/// The version printed by `--version` and sent as `X-Client-Info`.
package enum AuthshVersion {
  package static let current = "0.1.0"
}
