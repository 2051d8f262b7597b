import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit

/// `/_/faults`: the faults in force and the latency, buttons for the presets, and in
/// like-production mode the hosted limits with what is used of them.
struct ConsoleFaultsPage: ConsolePage {
  let context: ConsoleContext
  let faults: FaultInjector
  let latencyMs: Int

  func faultsPage() -> ServerResponse {
    typealias H = ConsoleHTML
    let token = EmulatorConsole.token
    var body = ConsoleNotice.markup(request.query("done"))
    body += "<p>Latency on every request: \(latencyMs) ms (set with <code>--latency-ms</code>).</p>"
    let active = faults.all
    body += "<div class=\"table-wrap\"><table id=\"faults\"><caption>Active faults</caption><thead><tr>"
    body += "<th scope=\"col\">Method</th><th scope=\"col\">Path</th><th scope=\"col\">Does</th>"
    body += "<th scope=\"col\">Requests left</th></tr></thead><tbody>"
    for fault in active {
      let does =
        fault.preset?.rawValue ?? fault.status.map { "status \($0)" } ?? (fault.latencyMs > 0 ? "latency" : "headers")
      let left = fault.times == 0 ? "until cleared" : String(fault.times)
      body += "<tr><td>\(H.text(fault.method ?? "any"))</td><td>\(H.text(fault.path ?? "any"))</td>"
      body += "<td>\(H.text(does))\(fault.latencyMs > 0 ? " +\(fault.latencyMs) ms" : "")</td><td>\(left)</td></tr>"
    }
    if active.isEmpty { body += "<tr><td colspan=\"4\">none</td></tr>" }
    body += "</tbody></table></div>"
    body += "<h2>Add a fault</h2><form method=\"post\" action=\"/_/faults/add\">" + H.tokenField(token)
    body += "<label for=\"fault-method\">Method</label><select id=\"fault-method\" name=\"method\">"
    for method in ["any", "GET", "POST", "PUT", "DELETE"] { body += "<option>\(method)</option>" }
    body += "</select> <label for=\"fault-path\">Path (empty: any)</label>"
    body += "<input id=\"fault-path\" name=\"path\" placeholder=\"/auth/v1/token\"> "
    body += "<label for=\"fault-times\">Requests (0: until cleared)</label>"
    body += "<input id=\"fault-times\" name=\"times\" type=\"number\" min=\"0\" value=\"1\"> "
    body += "<label for=\"fault-preset\">Preset</label><select id=\"fault-preset\" name=\"preset\">"
    for preset in EmulatorFault.Preset.allCases { body += "<option>\(preset.rawValue)</option>" }
    body += "</select> <button type=\"submit\">Add</button></form>"
    body += H.button(action: "/_/faults/clear", label: "Clear every fault", token: token, danger: true)
    body += limitsSection()
    return Self.html(200, H.page(title: "Faults and limits", section: .faults, body: body))
  }

  private func limitsSection() -> String {
    typealias H = ConsoleHTML
    guard mode.likeProduction else {
      return "<h2>Hosted limits</h2><p>Off: the emulator runs without the hosted products' limits "
        + "(start it with <code>--like-production</code> to have them).</p>"
    }
    let supabase = ProductionLimits.Supabase.self
    let firebase = ProductionLimits.Firebase.self
    let (used, perHour) = mode.emailQuota.usage
    let smtp = mode.smtp == .custom ? "custom SMTP" : "built-in mail"
    var quotas: [(String, String)] = [("Supabase mail (\(smtp))", "\(used) of \(perHour) this hour")]
    for quota in FirebaseMailQuota.allCases {
      let usage = mode.firebaseMailQuotas[quota]?.usage ?? (used: 0, events: quota.perDay)
      quotas.append(("Firebase \(quota) mails", "\(usage.used) of \(usage.events) today"))
    }
    func buckets(_ limits: [SupabaseLimit]) -> [TokenBucketLimiter] { limits.compactMap(mode.bucket) }
    let perClient: [(String, String, [TokenBucketLimiter])] = [
      ("Sign-in (/token)", "\(Self.number(supabase.tokenPerFiveMinutes)) per 5 min", buckets([.token])),
      ("Verify", "\(Self.number(supabase.verifyPerFiveMinutes)) per 5 min", buckets([.verify])),
      (
        "Sign-up, recover, resend, OTP, magic link, user", "\(Self.number(supabase.otpPerFiveMinutes)) per 5 min each",
        buckets([.otp, .signup, .recover, .resend, .magicLink, .user])
      ),
      ("Anonymous sign-ins", "\(Self.number(supabase.anonymousPerHour)) per hour", buckets([.anonymous])),
      (
        "Second-factor challenge and verify", "\(Self.number(supabase.mfaChallengeAndVerifyPerMinute)) per minute each",
        buckets([.factorChallenge, .factorVerify])
      ),
      ("Firebase sign-ups", "\(firebase.accountsPerAddressHour) per hour", [mode.firebaseSignUpLimiter]),
    ]
    var out = "<h2>Hosted limits</h2>" + H.facts(quotas.map { ($0.0, H.text($0.1)) }, caption: "Mail quotas")
    out += "<div class=\"table-wrap\"><table><caption>Per client address (burst \(supabase.burst))</caption><thead><tr>"
    out += "<th scope=\"col\">Limit</th><th scope=\"col\">Rate</th><th scope=\"col\">Clients at the limit now</th>"
    out += "</tr></thead><tbody>"
    for (name, rate, limiters) in perClient {
      let limited = limiters.flatMap { $0.limited(at: now) }
      let clients = limited.map { "\($0.key) (again in \(Int($0.retryAfter.rounded(.up))) s)" }
      out += "<tr><td>\(H.text(name))</td><td>\(H.text(rate))</td>"
      out += "<td>\(H.text(clients.isEmpty ? "none" : clients.joined(separator: ", ")))</td></tr>"
    }
    return out + "</tbody></table></div>"
  }

  /// 150.0 → "150", 0.5 → "0.5".
  static func number(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  func faultsAction(_ action: String) -> ServerResponse {
    switch action {
    case "clear":
      faults.clear()
      return Self.redirect("/_/faults?done=" + ConsoleNotice.faultsCleared.rawValue)
    case "add":
      let method = field("method").flatMap { $0 == "any" || $0.isEmpty ? nil : $0 }
      let path = field("path").flatMap { $0.isEmpty ? nil : $0 }
      guard let preset = field("preset").flatMap(EmulatorFault.Preset.init(rawValue:)) else {
        return Self.problem(400, "Choose one of the presets.", back: "/_/faults")
      }
      var fault = EmulatorFault(
        method: method, path: path, times: max(0, field("times").flatMap { Int($0) } ?? 1), preset: preset)
      if let path, !path.hasPrefix("/") { fault.path = "/" + path }
      faults.append(fault)
      return Self.redirect("/_/faults?done=" + ConsoleNotice.faultAdded.rawValue)
    default:
      return Self.problem(404, "No such action.", back: "/_/faults")
    }
  }
}
