import Essentials

extension SystemError {
  /// Why a file could not be read or written, as a sentence's end: "no such file" for ENOENT,
  /// the system's text otherwise, and any other error as it describes itself.
  static func reason(_ error: any Error) -> String {
    guard let system = error as? SystemError else { return String(describing: error) }
    return system.code == ENOENT ? "no such file" : system.description
  }
}
