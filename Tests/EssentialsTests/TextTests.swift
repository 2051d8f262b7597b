import Essentials
import Testing

/// The string helpers that stand in for Foundation's NSString methods: each gives what the
/// method it replaces gave on the inputs authsh hands it.
struct TextTests {
  @Test func replacingAllMatchesBytesNotCharacters() {
    #expect("a'b'c".replacingAll("'", with: "'\\''") == "a'\\''b'\\''c")
    // "\r\n" is one Character; a byte search still finds its "\n" (NSString's did too).
    #expect("one\r\ntwo\nthree".replacingAll("\n", with: " ") == "one\r two three")
    #expect("e\u{301}".replacingAll("e", with: "E") == "E\u{301}")
    #expect("aaa".replacingAll("aa", with: "b") == "ba")
    #expect("abc".replacingAll("", with: "x") == "abc")
    #expect("ab".replacingAll("abc", with: "x") == "ab")
    #expect("-_-".replacingAll("-", with: "+").replacingAll("_", with: "/") == "+/+")
  }

  @Test func trimmingSpacesKeepsLineBreaksAndTrimmingBothDropsThem() {
    #expect("\t a b \u{00A0}".trimmingSpaces == "a b")
    #expect("\n a \n".trimmingSpaces == "\n a \n")
    #expect("\n\r a \u{2028}\n".trimmingSpacesAndNewlines == "a")
    #expect("   ".trimmingSpaces == "")
    #expect("".trimmingSpacesAndNewlines == "")
    #expect("[::1]".trimming { $0 == "[" || $0 == "]" } == "::1")
  }

  @Test func paddedFillsOrCutsToTheWidth() {
    #expect("ab".padded(to: 4) == "ab  ")
    #expect("abcdef".padded(to: 4) == "abcd")
    #expect("é🎉".padded(to: 3) == "é🎉 ")
    #expect("".padded(to: 0) == "")
  }

  @Test func percentEncodingKeepsLettersDigitsAndWhatIsAsked() {
    #expect("a b/c+d=é".percentEncoded() == "a%20b%2Fc%2Bd%3D%C3%A9")
    #expect("id-1._~x y".percentEncoded(keeping: "-._~") == "id-1._~x%20y")
    #expect("%41%c3%A9+".percentDecoded == "Aé+")
    #expect("100%".percentDecoded == nil)
    #expect("%zz".percentDecoded == nil)
    #expect("%FF".percentDecoded == nil)
    #expect("plain".percentDecoded == "plain")
  }

  @Test func asciiCaseIsIgnoredAndNothingElse() {
    #expect("Content-Type".equalsIgnoringASCIICase("content-type"))
    #expect(!"Content-Type".equalsIgnoringASCIICase("content-typ"))
    #expect(!"É".equalsIgnoringASCIICase("é"))
  }

  @Test(arguments: [
    ("/a/b", "/a"), ("/a/b/", "/a"), ("/a", "/"), ("/", "/"), ("b", ""), ("b/", ""), ("a//b", "a"), ("", ""),
    ("./config.toml", "."),
  ])
  func parentDirectoryIsThePathsDirectoryPart(_ path: String, _ parent: String) {
    #expect(parentDirectory(of: path) == parent)
  }

  @Test func canonicalFormsComposeAndDecompose() {
    let decomposed = "e\u{301}"
    #expect(decomposed.composedForm.unicodeScalars.map(\.value) == [0xE9])
    #expect("\u{E9}".decomposedForm.unicodeScalars.map(\.value) == [0x65, 0x301])
    #expect("plain".composedForm == "plain")
  }

  /// Generated text of ASCII, capitals, accented and other-script letters: the same as
  /// `lowercased()`, and the very string when it has nothing to lower.
  @Test func lowercasedKeepingLowerIsLowercased() {
    let pieces = ["a", "z", "A", "Z", "@", ".", "0", "_", "É", "é", "İ", "Σ", "ß", "Ä", "😀", "ǅ"]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
      #expect(text.lowercasedKeepingLower == text.lowercased(), "\(text)")
    }
    #expect("ada@example.com".lowercasedKeepingLower == "ada@example.com")
  }
}
