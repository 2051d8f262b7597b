import Essentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a script from disk with a reason a person can act on ("is a directory", "no such
/// file", "permission denied") instead of Foundation's "The operation could not be completed".
package struct ScriptReadError: Error, Sendable, CustomStringConvertible {
  package let reason: String
  package init(_ reason: String) { self.reason = reason }
  package var description: String { reason }

  /// The reason for any error a `ReadFile` threw.
  package static func reason(of error: Error) -> String {
    if let error = error as? ScriptReadError { return error.reason }
    if let error = error as? SystemError { return ScriptFileReader.describe(error.code) }
    if let error = error as? InputTooLarge { return error.description }
    if let error = error as? CocoaError, [.fileNoSuchFile, .fileReadNoSuchFile].contains(error.code) {
      return "no such file"
    }
    return "not readable"
  }
}

enum ScriptFileReader {
  /// A script (or an included one) larger than this is no script: `include "/dev/zero"`.
  static let maximumSize = 4 << 20

  static func read(_ path: String) throws -> String {
    guard !path.isEmpty, !path.contains("\0") else { throw ScriptReadError("not a file name") }
    var info = stat()
    guard stat(path, &info) == 0 else { throw ScriptReadError(describe(errno)) }
    if info.st_mode & S_IFMT == S_IFDIR {
      let glob = (path.hasSuffix("/") ? path : path + "/") + "*.auth"
      throw ScriptReadError("is a directory; name the scripts in it, e.g. \(glob)")
    }
    let fd: Int32
    do { fd = try Descriptor.openForReading(path) } catch { throw ScriptReadError(describe(error.code)) }
    defer { _ = close(fd) }
    let bytes: [UInt8]
    do {
      bytes = try Descriptor.readAll(fd, limit: maximumSize, lineLimit: maximumSize)
    } catch let large as InputTooLarge {
      throw ScriptReadError("\(large)")
    } catch {
      throw ScriptReadError("could not be read")
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func describe(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "no such file"
    case EACCES, EPERM: return "permission denied"
    case ENOTDIR: return "a part of the path is not a directory"
    default: return String(cString: strerror(code)).lowercased()
    }
  }
}
