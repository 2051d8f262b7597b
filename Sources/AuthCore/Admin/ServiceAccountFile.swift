import Foundation
import JSONKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a Google service-account JSON file: refused when group or others can read it (it holds
/// a private key), with a clear message for a missing, unreadable or malformed file.
public enum ServiceAccountFile {
  /// Largest file read (a real one is about 2.3 kB).
  static let maximumFileSize = 1 << 20
  public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

  /// `source` says where the path came from (`GOOGLE_APPLICATION_CREDENTIALS`, `credentials_file in …`).
  public static func load(_ path: String, source: String) throws -> ServiceAccount {
    try parse(try readPrivate(path, source: source), path: path)
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
        message: "Refusing to use the service-account file \(path): it is readable by group or others (mode 0\(String(info.st_mode & 0o777, radix: 8))).",
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
  public static func parse(_ bytes: [UInt8], path: String, what: String? = nil) throws -> ServiceAccount {
    let subject = what ?? "The service-account file \(path)"
    guard let json = try? JSON.parse(bytes: bytes), json.object != nil else {
      throw AuthError(
        .configError, message: "\(subject) is not JSON.",
        hint: "Download the key again: Firebase console › Project settings › Service accounts › Generate new private key.")
    }
    let type = json["type"]?.string
    guard type == "service_account" else {
      let problem = type == "authorized_user" ? "holds user credentials (gcloud auth application-default login)" : "is not a service-account key (type is '\(type ?? "missing")')"
      throw AuthError(
        .configError, message: "\(what ?? "The file \(path)") \(problem).",
        hint: "Admin commands need a service-account key: Firebase console › Project settings › Service accounts › Generate new private key.")
    }
    func field(_ name: String) throws -> String {
      guard let value = json[name]?.string, !value.isEmpty else {
        throw AuthError(
          .configError, message: "\(subject) has no \(name).",
          hint: "Download the key again: Firebase console › Project settings › Service accounts › Generate new private key.")
      }
      return value
    }
    let key = try field("private_key")
    guard key.contains("-----BEGIN PRIVATE KEY-----") || key.contains("-----BEGIN RSA PRIVATE KEY-----") else {
      throw AuthError(
        .configError, message: "The private_key in \(what.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "the service-account file \(path)") is not a PEM private key.",
        hint: "Download the key again: Firebase console › Project settings › Service accounts › Generate new private key.")
    }
    return ServiceAccount(
      projectId: json["project_id"]?.string ?? "", clientEmail: try field("client_email"),
      privateKeyId: try field("private_key_id"), privateKeyPEM: key,
      tokenURI: json["token_uri"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? defaultTokenURI, path: path)
  }
}
