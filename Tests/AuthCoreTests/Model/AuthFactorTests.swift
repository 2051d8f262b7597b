import AuthCore
import Testing

@Suite struct AuthFactorTests {
  let factors = [
    AuthFactor(id: "f-1", kind: .totp, name: "phone"), AuthFactor(id: "f-2", kind: .totp, name: "Phone"),
    AuthFactor(id: "f-3", kind: .totp, name: "laptop"),
  ]

  /// A name two factors share is refused with their ids; an id always names one.
  @Test func aSharedNameIsRefusedAndAnIdPicksOne() throws {
    do {
      _ = try factors.factor(named: "PHONE")
      Issue.record("a shared name was taken")
    } catch let error as AuthError {
      #expect(error.code == .usage)
      #expect(error.message == "2 factors are named PHONE: give the id (f-1, f-2).")
    }
    #expect(try factors.factor(named: "f-2")?.name == "Phone")
    #expect(try factors.factor(named: "LAPTOP")?.id == "f-3")
    #expect(try factors.factor(named: "tablet") == nil)
  }
}
