import Foundation

extension RunOptions {
  /// Makes sure every report can be written before anything runs: missing parent directories are
  /// created (as `mkdir -p`); a path that is a directory, or whose parent cannot be made, is a
  /// problem to report (nil when every path is fine).
  public func prepareReportPaths(fileManager: FileManager = .default) -> String? {
    for (flag, path) in [("--report-junit", reportJUnit), ("--report-tap", reportTAP), ("--report-json", reportJSON)] {
      guard let path else { continue }
      guard !path.isEmpty else { return "\(flag) needs a file name" }
      var isDirectory: ObjCBool = false
      if fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        return "\(flag) \(path) is a directory; give a file name such as \(path.hasSuffix("/") ? path : path + "/")report"
      }
      let parent = (path as NSString).deletingLastPathComponent
      guard !parent.isEmpty else { continue }
      if fileManager.fileExists(atPath: parent, isDirectory: &isDirectory) {
        if !isDirectory.boolValue { return "\(flag) \(path): \(parent) is not a directory" }
        continue
      }
      do {
        try fileManager.createDirectory(atPath: parent, withIntermediateDirectories: true)
      } catch {
        return "\(flag) \(path): could not create the directory \(parent)"
      }
    }
    return nil
  }
}
