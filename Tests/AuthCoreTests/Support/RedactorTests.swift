import AuthCore
import Testing

@Suite struct RedactorTests {
  @Test func masksSecretsAndTheirWireForms() {
    let redactor = Redactor()
    redactor.register("p@ss/word\"1")
    redactor.register("ab")  // too short to mask safely
    let text = #"pw=p@ss/word"1 form=p%40ss%2Fword%221 json="p@ss\/word\"1" ab"#
    #expect(redactor.redact(text) == #"pw=*** form=*** json="***" ab"#)
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
