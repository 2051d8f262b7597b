/// The version printed by `--version` and sent as `X-Client-Info`.
public enum AuthshVersion {
  public static let current = "0.1.0"
}
