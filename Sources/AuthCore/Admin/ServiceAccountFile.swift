import Essentials
import JSONKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a Google service-account JSON file: refused when group or others can read it (it holds
/// a private key), with a clear message for a missing, unreadable or malformed file.
package enum ServiceAccountFile {
  /// Largest file read (a real one is about 2.3 kB).
  static let maximumFileSize = 1 << 20
  package static let defaultTokenURI = "https://oauth2.googleapis.com/token"

  /// `source` says where the path came from (`GOOGLE_APPLICATION_CREDENTIALS`, `credentials_file in …`).
  package static func load(_ path: String, source: String) throws -> ServiceAccount {
    try parse(try readPrivate(path, source: source), path: path)
  }

  /// Any Google credential file an admin command can use: a service-account key, a user's
  /// Application Default Credentials (`authorized_user`) or an `impersonated_service_account` file.
  package static func loadCredential(_ path: String, source: String) throws -> AdminCredential {
    try parseCredential(try readPrivate(path, source: source), path: path)
  }

  package static func parseCredential(_ bytes: [UInt8], path: String) throws -> AdminCredential {
    guard let json = try? JSON.parse(bytes: bytes), json.object != nil else {
      throw AuthError(
        .configError, message: "The credentials file \(path) is not JSON.",
        hint: "Download the key again, or run `gcloud auth application-default login` to write user credentials.")
    }
    switch json["type"]?.string {
    case "authorized_user": return .firebaseAuthorizedUser(try authorizedUser(json, path: path))
    case "impersonated_service_account": return .firebaseImpersonated(try impersonated(json, path: path))
    default: return .firebaseServiceAccount(try parse(bytes, path: path))
    }
  }

  static func authorizedUser(_ json: JSON, path: String) throws -> AuthorizedUser {
    func field(_ name: String) throws -> String {
      guard let value = json[name]?.string, !value.isEmpty else {
        throw AuthError(
          .configError, message: "The user credentials in \(path) have no \(name).",
          hint: "Run `gcloud auth application-default login` again to write them afresh.")
      }
      return value
    }
    return AuthorizedUser(
      clientId: try field("client_id"), clientSecret: try field("client_secret"),
      refreshToken: try field("refresh_token"),
      quotaProjectId: json["quota_project_id"]?.string.flatMap { $0.isEmpty ? nil : $0 },
      tokenURI: json["token_uri"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? defaultTokenURI, path: path)
  }

  static func impersonated(_ json: JSON, path: String) throws -> ImpersonatedServiceAccount {
    let hint = "Write the file again: gcloud auth application-default login --impersonate-service-account=EMAIL"
    guard let url = json["service_account_impersonation_url"]?.string, !url.isEmpty else {
      throw AuthError(
        .configError, message: "The impersonation file \(path) has no service_account_impersonation_url.", hint: hint)
    }
    guard let principal = ImpersonatedServiceAccount.principal(fromURL: url) else {
      throw AuthError(
        .configError,
        message:
          "The impersonation URL in \(path) does not name a service account (…/serviceAccounts/EMAIL:generateAccessToken).",
        hint: hint)
    }
    guard let sourceJSON = json["source_credentials"], sourceJSON.object != nil else {
      throw AuthError(.configError, message: "The impersonation file \(path) has no source_credentials.", hint: hint)
    }
    let source: ImpersonatedServiceAccount.Source
    switch sourceJSON["type"]?.string {
    case "authorized_user": source = .authorizedUser(try authorizedUser(sourceJSON, path: path))
    case "service_account": source = .serviceAccount(try parse(sourceJSON.bytes, path: path))
    case let other:
      throw AuthError(
        .configError,
        message:
          "The source credentials in \(path) are of type '\(other ?? "missing")'; authsh takes authorized_user or service_account there.",
        hint: hint)
    }
    return ImpersonatedServiceAccount(
      source: source, impersonationURL: url, targetPrincipal: principal,
      delegates: json["delegates"]?.array?.compactMap(\.string) ?? [],
      quotaProjectId: json["quota_project_id"]?.string.flatMap { $0.isEmpty ? nil : $0 }, path: path)
  }

  static func readPrivate(_ path: String, source: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
      let reason = String(cString: strerror(errno))
      throw AuthError(
        .configError, message: "Could not open the service-account file \(path) (from \(source)): \(reason).",
        hint: errno == ENOENT
          ? "Check the path, or download a key: Firebase console › Project settings › Service accounts › Generate new private key."
          : nil)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw AuthError(.configError, message: "The service-account file \(path) (from \(source)) is not a regular file.")
    }
    if info.st_mode & 0o077 != 0 {
      throw AuthError(
        .configError,
        message:
          "Refusing to use the service-account file \(path): it is readable by group or others (mode 0\(String(info.st_mode & 0o777, radix: 8))).",
        hint: "It holds a private key. Run: chmod 600 \(path)")
    }
    guard info.st_size <= maximumFileSize else {
      throw AuthError(.configError, message: "The service-account file \(path) is too large to be one.")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while bytes.count <= maximumFileSize {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else {
        throw AuthError(.configError, message: "Could not read \(path): \(String(cString: strerror(errno))).")
      }
      if n == 0 { break }
      bytes += chunk[0..<n]
    }
    return bytes
  }

  /// The fields the token exchange needs. Messages never quote the file's contents.
  /// `what` names the source in messages (default: "The service-account file PATH").
  package static func parse(_ bytes: [UInt8], path: String, what: String? = nil) throws -> ServiceAccount {
    let subject = what ?? "The service-account file \(path)"
    guard let json = try? JSON.parse(bytes: bytes), json.object != nil else {
      throw AuthError(
        .configError, message: "\(subject) is not JSON.",
        hint:
          "Download the key again: Firebase console › Project settings › Service accounts › Generate new private key.")
    }
    let type = json["type"]?.string
    guard type == "service_account" else {
      if type == "authorized_user" {
        // Only where a service account is the one kind taken (a keyring secret).
        throw AuthError(
          .configError,
          message: "\(what ?? "The file \(path)") holds user credentials (gcloud auth application-default login).",
          hint:
            "Give their file as credentials_file or GOOGLE_APPLICATION_CREDENTIALS, or store a service-account key here."
        )
      }
      throw AuthError(
        .configError,
        message:
          "\(what ?? "The file \(path)") is not a Google credentials file authsh knows (type is '\(type ?? "missing")').",
        hint:
          "Use a service-account key (Firebase console › Project settings › Service accounts › Generate new private key), "
          + "or user credentials from `gcloud auth application-default login` (with --impersonate-service-account=EMAIL to impersonate one)."
      )
    }
    func field(_ name: String) throws -> String {
      guard let value = json[name]?.string, !value.isEmpty else {
        throw AuthError(
          .configError, message: "\(subject) has no \(name).",
          hint:
            "Download the key again: Firebase console › Project settings › Service accounts › Generate new private key."
        )
      }
      return value
    }
    let key = try field("private_key")
    guard key.contains("-----BEGIN PRIVATE KEY-----") || key.contains("-----BEGIN RSA PRIVATE KEY-----") else {
      throw AuthError(
        .configError,
        message:
          "The private_key in \(what.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "the service-account file \(path)") is not a PEM private key.",
        hint:
          "Download the key again: Firebase console › Project settings › Service accounts › Generate new private key.")
    }
    return ServiceAccount(
      projectId: json["project_id"]?.string ?? "", clientEmail: try field("client_email"),
      privateKeyId: try field("private_key_id"), privateKeyPEM: key,
      tokenURI: json["token_uri"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? defaultTokenURI, path: path)
  }
}
