import Essentials
import Testing

@testable import AuthScript

@Suite struct PathTextTests {
  @Test func joinsAndNormalization() {
    #expect(PathText.lastComponent("a/b/c.auth") == "c.auth")
    #expect(PathText.join("ok", "../lib/x.auth") == "ok/../lib/x.auth")
    #expect(PathText.join("ok", "/abs.auth") == "/abs.auth")
    #expect(PathText.normalize("ok/../lib/x.auth") == "lib/x.auth")
    #expect(PathText.normalize("./a/./b") == "a/b")
    #expect(PathText.normalize("../../a") == "../../a")
    #expect(PathText.normalize("/../a") == "/a")
  }

  /// Foundation's path methods trapped on such names (found by the fuzz test); these must not.
  @Test func hostileIncludeNamesDoNotTrap() {
    let names = [
      "\u{0}", "\u{301}/x", "a/\u{0}/..", "//", "/", "..", "🙂/../🙂", "\u{FEFF}", String(repeating: "../", count: 50),
    ]
    for name in names {
      _ = diagnose("include \"\(name)\"\n", files: [:])
      _ = PathText.normalize(PathText.join(parentDirectory(of: name), name))
    }
  }
}
