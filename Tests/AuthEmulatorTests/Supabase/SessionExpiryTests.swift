import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

/// Sessions end as GoTrue's timebox and inactivity timeout say, and ended or surplus sessions are
/// pruned, so memory stays bounded however often users sign in.
@Suite("Supabase: session expiry and pruning")
struct SessionExpiryTests {
  @Test("timebox: a refresh after the timebox answers session_expired")
  func timebox() async throws {
    let emulator = try TestEmulator { $0.sessionTimebox = 3600 }
    let session = await emulator.signUp("box@example.com").json
    emulator.clock.advance(1800)
    let refreshed = await emulator.refresh(session.refreshToken)
    #expect(refreshed.status == 200)
    emulator.clock.advance(1801)
    let late = await emulator.refresh(refreshed.json.refreshToken)
    #expect(late.status == 400 && late.errorCode == "session_expired")
    #expect(late.json["message"]?.string == "Invalid Refresh Token: Session Expired")
  }

  @Test("inactivity: each refresh keeps the session alive; a long pause ends it")
  func inactivity() async throws {
    let emulator = try TestEmulator { $0.sessionInactivityTimeout = 600 }
    var token = await emulator.signUp("idle@example.com").json.refreshToken
    for _ in 0..<3 {
      emulator.clock.advance(500)
      let refreshed = await emulator.refresh(token)
      #expect(refreshed.status == 200)
      token = refreshed.json.refreshToken
    }
    emulator.clock.advance(601)
    let late = await emulator.refresh(token)
    #expect(late.status == 400 && late.errorCode == "session_expired")
    #expect(late.json["message"]?.string == "Invalid Refresh Token: Session Expired (Inactivity)")
  }

  @Test("with GoTrue's defaults (no timebox, no inactivity) sessions of one user stay at most maxSessionsPerUser")
  func capPerUser() async throws {
    let emulator = try TestEmulator()
    let first = await emulator.signUp("busy@example.com").json
    for _ in 0..<250 { #expect(await emulator.signIn("busy@example.com").status == 200) }
    let count = emulator.emulator.supabase.state.read { $0.sessions.count }
    #expect(count == EmulatorConfig().maxSessionsPerUser)
    let tokens = emulator.emulator.supabase.state.read { $0.refreshTokens.count }
    #expect(tokens == count)
    let oldest = await emulator.refresh(first.refreshToken)
    #expect(oldest.status == 400)  // its session was pruned with its tokens
  }

  @Test("expired sessions are pruned at the next sign-in, so their number stays bounded over time")
  func expiredArePruned() async throws {
    let emulator = try TestEmulator { $0.sessionInactivityTimeout = 60 }
    _ = await emulator.signUp("clock@example.com")
    for _ in 0..<300 {
      emulator.clock.advance(1)
      #expect(await emulator.signIn("clock@example.com").status == 200)
    }
    let count = emulator.emulator.supabase.state.read { $0.sessions.count }
    #expect(count <= 61, "\(count) sessions kept")
  }

  @Test(
    "a session refreshed many times keeps a bounded number of revoked tokens; reuse of a recent one is still detected")
  func refreshChainIsPruned() async throws {
    let emulator = try TestEmulator()
    var token = await emulator.signUp("chain@example.com").json.refreshToken
    var previous = token
    for _ in 0..<200 {
      let refreshed = await emulator.refresh(token)
      #expect(refreshed.status == 200)
      previous = token
      token = refreshed.json.refreshToken
    }
    let kept = emulator.emulator.supabase.state.read { $0.refreshTokens.count }
    #expect(kept == GoTrueContext.refreshTokensKeptPerSession)
    // The parent of the active token is still known: a retry gets the active token back.
    let retry = await emulator.refresh(previous)
    #expect(retry.status == 200 && retry.json.refreshToken == token)
  }

  @Test("at start-up, sessions that expired while the emulator was stopped are dropped from the state file")
  func prunedAtStartUp() async throws {
    let store = FullDiskStore()
    let first = try TestEmulator(store: store) { $0.sessionTimebox = 60 }
    _ = await first.signUp("restart@example.com")
    #expect(try store.loadAll(SupabaseData.sessionsTable).count == 1)
    first.clock.advance(120)
    var config = EmulatorConfig()
    config.sessionTimebox = 60
    _ = try Emulator(config: config, clock: first.clock, store: store)
    #expect(try store.loadAll(SupabaseData.sessionsTable).isEmpty)
    #expect(try store.loadAll(SupabaseData.refreshTokensTable).isEmpty)
  }
}
