/// One problem at one place: parse, check, runtime and assertion failures all become this, and all
/// print through `DiagnosticRenderer` (hurl's one error protocol, rustc's caret style).
package struct Diagnostic: Sendable, Hashable, Error {
  package enum Severity: String, Sendable, Hashable {
    case error, warning
  }

  package var severity: Severity
  /// The headline after `error: ` (`unknown command 'logn'`).
  package var title: String
  /// The file as the user named it.
  package var fileName: String?
  package var range: SourceRange?
  /// The text of the line the range starts on (kept so rendering needs no file access).
  package var sourceLine: String?
  /// Text after the carets (`did you mean 'login'?`).
  package var note: String?
  /// Further lines aligned under the note (`expected: string <…>`).
  package var notes: [String]

  package init(
    _ title: String, severity: Severity = .error, file: SourceFile? = nil, range: SourceRange? = nil,
    note: String? = nil, notes: [String] = []
  ) {
    self.severity = severity
    self.title = title
    self.fileName = file?.name
    self.range = range
    self.sourceLine = range.flatMap { range in file.map { $0.line(range.start.line) } }
    self.note = note
    self.notes = notes
  }

  /// `file:line:column`, or just the file.
  package var location: String? {
    guard let fileName else { return nil }
    guard let range else { return fileName }
    return "\(fileName):\(range.start.line):\(range.start.column)"
  }
}

extension Diagnostic {
  /// In reading order: files in the order they first appear, each file's problems by line.
  package static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    var files: [String?] = []
    for diagnostic in diagnostics where !files.contains(diagnostic.fileName) { files.append(diagnostic.fileName) }
    let origin = SourceLocation(line: 0, column: 0)
    return files.flatMap { file in
      diagnostics.enumerated().filter { $0.element.fileName == file }
        .sorted { ($0.element.range?.start ?? origin, $0.offset) < ($1.element.range?.start ?? origin, $1.offset) }
        .map(\.element)
    }
  }
}

/// Collects diagnostics of a pass (parser, checker, loader) in source order.
package struct DiagnosticBag: Sendable {
  package private(set) var items: [Diagnostic] = []
  package init() {}
  package mutating func add(_ diagnostic: Diagnostic) { items.append(diagnostic) }
  package mutating func add(contentsOf other: [Diagnostic]) { items.append(contentsOf: other) }
  package var hasErrors: Bool { items.contains { $0.severity == .error } }
}
