import AuthCore
import AuthTestSupport
import Foundation
import Testing

@Suite struct RedactorTests {
  @Test func masksSecretsAndTheirWireForms() {
    let redactor = Redactor()
    redactor.register("p@ss/word\"1")
    redactor.register("ab")  // too short to mask safely
    let text = #"pw=p@ss/word"1 form=p%40ss%2Fword%221 json="p@ss\/word\"1" ab"#
    #expect(redactor.redact(text) == #"pw=*** form=*** json="***" ab"#)
  }

  /// A value the user declared secret is masked however short, with its wire forms.
  @Test func declaredSecretsOfEveryLengthAreMasked() {
    let redactor = Redactor()
    redactor.registerDeclared("xq7")
    redactor.registerDeclared("z")
    redactor.registerDeclared("a/")
    #expect(redactor.redact("xq7 [xq7] z a%2F") == "*** [***] *** ***")
  }

  @Test func longerSecretsFirst() {
    let redactor = Redactor()
    redactor.register("token")
    redactor.register("token-and-more")
    #expect(redactor.redact("token-and-more / token") == "*** / ***")
  }

  @Test func revealingKeepsOtherSecrets() {
    let redactor = Redactor()
    redactor.register("the-password")
    redactor.register("the-access-token")
    #expect(redactor.revealing(["the-access-token"]).redact("the-password the-access-token") == "*** the-access-token")
  }
}

/// Masking is linear (issue 12 item 10); these pin its semantics, the timing lives in
/// `bench/redact.sh`.
@Suite struct RedactorSemanticsTests {
  @Test func longerSecretWinsWhereTheyOverlap() {
    let redactor = Redactor()
    redactor.register("abcd")
    redactor.register("bcdef")
    #expect(redactor.redact("abcdef abcd") == "a*** ***")
  }

  @Test func repeatedAndOverlappingOccurrences() {
    let redactor = Redactor()
    redactor.register("aaaa")
    #expect(redactor.redact("aaaaaaaa|aaaaa|aaa") == "******|***a|aaa")
  }

  @Test func nearMissesOfALongSecretStayAndTheWholeOneIsMasked() {
    let secret = String(repeating: "k", count: 3999) + "!"
    let redactor = Redactor()
    redactor.register(secret)
    let noise = String(repeating: "k", count: 16_000)
    #expect(redactor.redact(noise) == noise)
    #expect(redactor.redact(noise + secret + "k") == noise + "***k")
  }

  @Test func nonASCIISecretsInEitherNormalisationForm() {
    let redactor = Redactor()
    redactor.register("caf\u{E9}-π-секрет")
    #expect(redactor.redact("pw=caf\u{E9}-π-секрет!") == "pw=***!")
    #expect(redactor.redact("pw=cafe\u{301}-π-секрет!") == "pw=***!")
    #expect(redactor.redact("emoji 🔑 caf\u{E9}-π-секрет 🔑") == "emoji 🔑 *** 🔑")
  }

  /// The same answers as masking each secret in turn, longest first, with `replacingOccurrences`
  /// (the former implementation), on random texts over a small alphabet full of near misses.
  @Test func agreesWithSequentialReplacement() {
    var generator = SplitMix64(seed: 0x5EC2E7)
    let alphabet = Array("abc")
    func word(_ length: Int) -> String { String((0..<length).map { _ in alphabet[Int(generator.next() % 3)] }) }
    for _ in 0..<400 {
      let secrets = (0..<Int(1 + generator.next() % 3)).map { _ in word(4 + Int(generator.next() % 3)) }
      let text = word(Int(generator.next() % 40))
      let redactor = Redactor()
      var ordered: [String] = []
      for secret in secrets {
        redactor.register(secret)
        if !ordered.contains(secret) { ordered.append(secret) }
      }
      var expected = text
      for secret in ordered.enumerated().sorted(by: { ($0.element.count, $1.offset) > ($1.element.count, $0.offset) }) {
        expected = expected.replacingOccurrences(of: secret.element, with: "***")
      }
      #expect(redactor.redact(text) == expected, "secrets \(secrets) text \(text)")
    }
  }
}
