/// Source text with emoji markers (swift-format's MarkedText): `1️⃣logn x` says "the diagnostic
/// lands here" without column arithmetic. Markers are removed; their 1-based line/column kept.
struct MarkedText {
  static let markers: [Character] = ["0️⃣", "1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

  var text: String
  var locations: [String: (line: Int, column: Int)] = [:]

  init(_ marked: String) {
    var text = ""
    var line = 1
    var column = 1
    for character in marked {
      if MarkedText.markers.contains(character) {
        locations[String(character)] = (line, column)
        continue
      }
      text.append(character)
      if character == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    self.text = text
  }

  subscript(_ marker: String) -> (line: Int, column: Int)? { locations[marker] }
}
