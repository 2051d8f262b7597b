import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit

/// `GET /emulator/v1/limits`: the sign-in rate limiter's state, so `diagnose` can say whether
/// sign-in is limited right now (an emulator-only endpoint; production does not tell). GoTrue
/// limits `/token` per client address, not per account: the answer lists the addresses whose
/// bucket is empty (`local` for requests without `X-Forwarded-For`).
extension EmulatorRouter {
  static func limitsResponse(_ request: ServerRequest, mode: EmulatorMode, now: Date) -> ServerResponse {
    guard request.method == "GET" else {
      return ServerResponse(status: 405, headers: [("Allow", "GET")], body: [])
    }
    let supabase = ProductionLimits.Supabase.self
    let limited = mode.likeProduction ? mode.tokenLimiter?.limited(at: now) ?? [] : []
    let body: JSON = [
      "like_production": .bool(mode.likeProduction),
      "sign_in": [
        "per_five_minutes": .double(supabase.tokenPerFiveMinutes), "burst": .int(supabase.burst),
        "keyed_by": "client address",
      ],
      "limited": .array(
        limited.map { entry in
          [
            "route": "token", "client": .string(entry.key),
            "retry_after_seconds": .int(Int(entry.retryAfter.rounded(.up))),
          ]
        }),
    ]
    return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: body.bytes)
  }
}
