import Essentials

/// Adds `  --> rc:LINE` under the first line of each error or warning (the startup file's lines).
struct LocatingSink: OutputSink {
  let base: any OutputSink
  let location: String

  func write(_ text: String, to stream: OutputStream) {
    guard stream == .standardError else { return base.write(text, to: stream) }
    let plain = text.replacingAll("\u{1B}[31m", with: "").replacingAll("\u{1B}[33m", with: "")
    guard plain.hasPrefix("error") || plain.hasPrefix("warning"), let newline = text.firstIndex(of: "\n") else {
      return base.write(text, to: stream)
    }
    let after = text.index(after: newline)
    base.write(String(text[..<after]) + "  --> \(location)\n" + String(text[after...]), to: stream)
  }
}
