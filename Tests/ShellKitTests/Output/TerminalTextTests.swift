import AuthCore
import Testing

@testable import ShellKit

@Suite struct TerminalTextTests {
  @Test func controlAndBidiCharactersBecomeVisibleEscapes() {
    #expect(TerminalText.escape("a\u{1B}[2Jb") == #"a\e[2Jb"#)
    #expect(TerminalText.escape("\u{1B}]0;title\u{07}") == #"\e]0;title\u{7}"#)
    #expect(TerminalText.escape("x\u{9B}31m\u{85}") == #"x\u{9B}31m\u{85}"#)
    #expect(
      TerminalText.escape("abc\u{202E}gpj.exe\u{2066}\u{200F}\u{061C}") == #"abc\u{202E}gpj.exe\u{2066}\u{200F}\u{61C}"#
    )
    #expect(TerminalText.escape("one\ntwo\tthree\r\u{7F}\u{0}") == #"one\ntwo\tthree\r\u{7F}\u{0}"#)
  }

  /// An address with a line separator (the emulator's Firebase side accepts one) must not start
  /// a new line in `user import`'s summary, which keeps its own line breaks.
  @Test func unicodeLineSeparatorsCannotBreakALine() {
    #expect(TerminalText.escape("ada\u{2028}@example.com\u{2029}") == #"ada\u{2028}@example.com\u{2029}"#)
    #expect(
      TerminalText.escapeKeepingLines("imported ada\u{2028}x@example.com\nskipped")
        == "imported ada\\u{2028}x@example.com\nskipped")
  }

  @Test func ordinaryTextIsUntouched() {
    for text in ["Ada Lovelace", "José Ñúñez", "李小龍", "👩🏽‍💻 dev", "مرحبا", "back\\slash", ""] {
      #expect(TerminalText.escape(text) == text)
    }
  }

  @Test func blocksKeepTheirLines() {
    #expect(TerminalText.escapeKeepingLines("a\n\tb\u{1B}c\n") == "a\n\tb\\ec\n")
  }

  @Test func humanRendererEscapesErrorsFromTheServer() {
    let error = AuthError(.providerError, message: "no \u{1B}[2J", providerCode: "x\u{202E}", status: 400)
    let text = HumanRenderer.renderError(error, style: .plain)
    #expect(text == "error: no \\e[2J\n  (provider_error, x\\u{202E}, HTTP 400)\n")
  }
}
