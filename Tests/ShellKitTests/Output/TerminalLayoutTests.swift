import Testing

@testable import ShellKit

@Suite("terminal layout")
struct TerminalLayoutTests {
  @Test func theEffectiveLCCTYPEDecidesTheMarks() {
    #expect(TerminalLayout.unicodeLocale(["LANG": "en_US.UTF-8"]))
    #expect(TerminalLayout.unicodeLocale(["LANG": "C.utf8"]))
    #expect(!TerminalLayout.unicodeLocale(["LANG": "C"]))
    #expect(!TerminalLayout.unicodeLocale([:]))
    // LC_ALL wins, then LC_CTYPE; an empty one counts as unset.
    #expect(!TerminalLayout.unicodeLocale(["LC_ALL": "C", "LANG": "C.UTF-8"]))
    #expect(TerminalLayout.unicodeLocale(["LC_ALL": "", "LC_CTYPE": "C.UTF-8", "LANG": "C"]))
    #expect(!TerminalLayout.unicodeLocale(["LC_CTYPE": "POSIX", "LANG": "C.UTF-8"]))
  }

  @Test func everyMarkHasAnASCIIForm() {
    let marks = "✓ ok ✗ no ⚠ careful — dash … more → next › menu · dot"
    let ascii = TerminalLayout.ascii(marks)
    #expect(ascii == "ok ok x no ! careful -- dash ... more -> next > menu - dot")
    #expect(!ascii.utf8.contains { $0 >= 0x80 })
    // A user's own characters are theirs.
    #expect(TerminalLayout.ascii("Zoë") == "Zoë")
  }

  @Test func longLinesBreakAtSpacesOnly() {
    let line = "error: the password is too weak for this project's policy, which asks for twelve characters"
    let wrapped = TerminalLayout.wrap(line, width: 40).split(separator: "\n")
    #expect(wrapped.count > 1)
    #expect(wrapped.allSatisfy { $0.count <= 40 })
    #expect(wrapped.joined(separator: " ") == line)
  }

  @Test func aTableValueContinuesUnderItsColumn() {
    let line = "  metadata  {\"team\":\"blue\"} and a long comment that goes on"
    let wrapped = TerminalLayout.wrap(line, width: 40).split(separator: "\n").map(String.init)
    #expect(wrapped.first?.hasPrefix("  metadata  {") == true)
    #expect(wrapped.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 12)) && $0.count <= 40 })
  }

  @Test func aWordLongerThanTheLineStaysWhole() {
    let id = "5b0c2a8e-3f4d-4c1a-9d7e-2b6f8a1c0e3d"
    let wrapped = TerminalLayout.wrap("  id            " + id, width: 40).split(separator: "\n").map(String.init)
    #expect(wrapped.count == 2)
    #expect(String(wrapped[1].drop { $0 == " " }) == id)
    #expect(wrapped.allSatisfy { $0.count <= 40 })
  }

  @Test func colourAndJSONAndRedrawnLinesAreLeftAlone() {
    let red = "\u{1B}[31merror:\u{1B}[0m short"
    #expect(TerminalLayout.wrap(red, width: 20) == red)
    let json = "  \"message\": \"a long message with many words in it that is longer than forty\""
    #expect(TerminalLayout.wrap(json, width: 40) == json)
    let spinner = "\r\u{1B}[K⠋ Signing in to a server far away with a long name, please wait"
    #expect(TerminalLayout.wrap(spinner, width: 40) == spinner)
  }

  @Test func aTableTooWideStacksAsKeyValueLines() {
    let rows = [["EMAIL", "ID", "CONFIRMED"], ["ada@example.com", "5b0c2a8e-3f4d-4c1a-9d7e-2b6f8a1c0e3d", "yes"]]
    #expect(SupportRenderer.columns(rows, width: 100).count == 2)
    let stacked = SupportRenderer.columns(rows, width: 40)
    #expect(stacked == ["email: ada@example.com", "id: 5b0c2a8e-3f4d-4c1a-9d7e-2b6f8a1c0e3d", "confirmed: yes"])
  }

  @Test func aQRCodeWiderThanTheWindowOrLocaleBecomesANote() throws {
    let code = try #require(TerminalQR.render("otpauth://totp/authsh:ada@example.com?secret=JBSWY3DPEHPK3PXP"))
    let codeWidth = try #require(code.first?.count)
    #expect(TerminalQR.fitted(code, style: Style(color: false, width: codeWidth)) == code)
    let narrow = TerminalQR.fitted(code, style: Style(color: false, width: codeWidth - 1))
    #expect(narrow.count == 1 && narrow[0].contains("too narrow"))
    let ascii = TerminalQR.fitted(code, style: Style(color: false, unicode: false, width: 120))
    #expect(ascii.count == 1 && ascii[0].contains("not UTF-8") && !ascii[0].utf8.contains { $0 >= 0x80 })
  }
}
