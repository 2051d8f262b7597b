import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

/// Abandoned enrolments and code guessing as GoTrue runs them: `DeleteExpiredFactors` removes an
/// unverified factor only when it was never challenged, so a challenged one keeps its name and
/// counts towards the limit of 10; `/factors/{id}/challenge` and `/verify` have a per-address
/// bucket each (`MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY`, 15 a minute, bursts of 30).
@Suite("Supabase factor lifecycle and limits")
struct FactorLifecycleTests {
  @Test("an abandoned factor that was challenged keeps its name: enrolling it again is 422 mfa_factor_name_conflict")
  func challengedFactorStays() async throws {
    var rig = try await FactorRig()
    #expect(try await rig.enroll("phone").status == 200)
    let challenge = await rig.challenge()
    #expect(await rig.verify(try #require(challenge.json["id"]?.string), "000000").status == 422)
    rig.emu.clock.advance(600)
    let again = try await rig.enroll("phone")
    #expect(again.status == 422)
    #expect(again.errorCode == "mfa_factor_name_conflict")
    #expect(again.json["msg"]?.string ?? again.json["message"]?.string ?? "" != "")
    // An unchallenged one is cleaned up after 300 s and its name is free again.
    #expect(try await rig.enroll("tablet").status == 200)
    rig.emu.clock.advance(301)
    #expect(try await rig.enroll("tablet").status == 200)
  }

  @Test("challenged, never verified factors count towards the limit of 10")
  func staleFactorsCount() async throws {
    var rig = try await FactorRig()
    for index in 0..<10 {
      #expect(try await rig.enroll("device \(index)").status == 200)
      #expect(await rig.challenge().status == 200)
    }
    rig.emu.clock.advance(600)
    let eleventh = try await rig.enroll("device 10")
    #expect(eleventh.status == 422)
    #expect(eleventh.errorCode == "too_many_enrolled_mfa_factors")
  }

  @Test(
    "like production: the 31st challenge from one address is 429 over_request_rate_limit; verify has its own bucket")
  func challengeAndVerifyLimit() async throws {
    var rig = try await FactorRig()
    #expect(try await rig.enroll().status == 200)
    rig.emu.emulator.mode.set(likeProduction: true)
    var last = ""
    for _ in 0..<30 { last = await rig.challenge().json["id"]?.string ?? last }
    let over = await rig.challenge()
    #expect(over.status == 429)
    #expect(over.errorCode == "over_request_rate_limit")
    // Another address has its own bucket; four seconds refill one request (15 a minute).
    let other = await rig.emu.send(
      "POST", "factors/\(rig.factorID)/challenge", json: [:], bearer: rig.token,
      headers: [("X-Forwarded-For", "198.51.100.7")])
    #expect(other.status == 200)
    rig.emu.clock.advance(4)
    #expect(await rig.challenge().status == 200)
    // Guessing codes: 30 wrong ones, then 429 even for the right code.
    for _ in 0..<30 { #expect(await rig.verify(last, "000000").status == 422) }
    #expect(await rig.verify(last, rig.code()).status == 429)
  }

  @Test("default mode: no limit, unless --mfa-rate-limit gives one (bursts of 30 at that rate)")
  func defaultModeLimit() async throws {
    var free = try await FactorRig()
    #expect(try await free.enroll().status == 200)
    for _ in 0..<40 { #expect(await free.challenge().status == 200) }

    var limited = try await FactorRig { $0.mfaRateLimit = 6 }
    #expect(try await limited.enroll().status == 200)
    for _ in 0..<30 { #expect(await limited.challenge().status == 200) }
    #expect(await limited.challenge().status == 429)
    limited.emu.clock.advance(10)
    #expect(await limited.challenge().status == 200)
  }
}
