import CQREncode

/// A QR code drawn with text, two module rows per line (`▀ ▄ █`), as `qrencode -t UTF8` does:
/// light modules are the drawn blocks, so the code reads on a dark terminal, with a quiet zone
/// of two modules. The symbol comes from libqrencode.
package enum TerminalQR {
  static let quietZone = 2

  /// The dark modules, row by row (true = dark); nil when the text cannot be encoded.
  package static func modules(_ text: String) -> [[Bool]]? {
    guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_L) else { return nil }
    defer { QRcode_free(code) }
    let width = Int(code.pointee.width)
    guard width > 0, let data = code.pointee.data else { return nil }
    return (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
  }

  /// The lines to print; nil when the text cannot be encoded.
  package static func render(_ text: String) -> [String]? {
    guard let matrix = modules(text) else { return nil }
    let size = matrix.count + 2 * quietZone
    func light(_ row: Int, _ column: Int) -> Bool {
      let r = row - quietZone
      let c = column - quietZone
      guard r >= 0, c >= 0, r < matrix.count, c < matrix.count else { return true }
      return !matrix[r][c]
    }
    var lines: [String] = []
    var row = 0
    while row < size {
      var line = ""
      for column in 0..<size {
        let top = light(row, column)
        let bottom = row + 1 < size ? light(row + 1, column) : false
        switch (top, bottom) {
        case (true, true): line += "█"
        case (true, false): line += "▀"
        case (false, true): line += "▄"
        case (false, false): line += " "
        }
      }
      lines.append(line)
      row += 2
    }
    return lines
  }

  /// What a terminal of `style` shows of a drawn code (`render`'s lines): the code itself, or a
  /// note in its place when the locale cannot show its blocks or the window is narrower than the
  /// code (a wrapped code cannot be scanned). The secret and the URI are printed beside it anyway.
  package static func fitted(_ lines: [String]?, style: Style) -> [String] {
    guard let lines, let codeWidth = lines.first?.count else { return [] }
    let byHand = "Enter the secret in the app by hand, or open the otpauth:// URI on this device."
    guard style.unicode else { return ["No QR code: the terminal's locale is not UTF-8. " + byHand] }
    if let width = style.width, width < codeWidth {
      return ["No QR code: the window is too narrow (\(width) columns; the code needs \(codeWidth)). " + byHand]
    }
    return lines
  }
}
