import AuthCore
import JSONKit
import Testing

@Suite("A user signed in by phone, and the pending codes kept between commands")
struct AuthUserPhoneTests {
  @Test("label: the e-mail, else the phone, else the id; phone round-trips through the stored form")
  func label() throws {
    var user = AuthUser(id: "u1", email: "", emailConfirmed: false, provider: "phone", phone: "+15551234567")
    #expect(user.label == "+15551234567")
    #expect(user.json["phone"] == "+15551234567")
    #expect(AuthUser(json: user.json) == user)
    user.email = "ada@example.com"
    #expect(user.label == "ada@example.com")
    user.email = ""
    user.phone = nil
    #expect(user.label == "u1")
    #expect(user.json["phone"] == .null)
  }

  @Test("phone_verifications are kept in the state file and make it worth keeping")
  func pendingCodes() {
    var state = ProfileState()
    #expect(state.isEmpty)
    state.phoneVerifications["+15551234567"] = "session-info"
    #expect(!state.isEmpty)
    let stored = state.json
    #expect(stored["phone_verifications"]?["+15551234567"] == "session-info")
    #expect(ProfileState(json: stored).phoneVerifications == ["+15551234567": "session-info"])
    #expect(ProfileState().json["phone_verifications"] == nil)
  }
}
