import Essentials

/// The accounts list's filters, combined with each other and with the search: each one set keeps
/// only the accounts that have it.
struct ConsoleFilters: Sendable, Equatable {
  /// The yes/no filters, as query parameters (`confirmed=1`) and labels.
  enum Flag: String, CaseIterable, Sendable {
    case confirmed, anonymous, disabled, secondFactor = "mfa", phone

    func label(_ side: ConsoleSide) -> String {
      switch self {
      case .confirmed: return "confirmed"
      case .anonymous: return "anonymous"
      case .disabled: return side == .supabase ? "banned" : "disabled"
      case .secondFactor: return "has a second factor"
      case .phone: return "has a phone"
      }
    }
  }

  var flags: Set<Flag> = []
  /// A provider the account must have (`email`, `google`, `password`, …); "" for any.
  var provider = ""

  var isEmpty: Bool { flags.isEmpty && provider.isEmpty }

  /// The facts of one account the filters look at.
  struct Facts {
    var confirmed: Bool
    var anonymous: Bool
    var disabled: Bool
    var secondFactor: Bool
    var phone: Bool
    var providers: [String]
  }

  func admits(_ facts: Facts) -> Bool {
    for flag in flags {
      let has: Bool
      switch flag {
      case .confirmed: has = facts.confirmed
      case .anonymous: has = facts.anonymous
      case .disabled: has = facts.disabled
      case .secondFactor: has = facts.secondFactor
      case .phone: has = facts.phone
      }
      if !has { return false }
    }
    return provider.isEmpty || facts.providers.contains(provider)
  }

  /// The query parameters that make these filters, in a fixed order.
  var parameters: [(String, String)] {
    var items = Flag.allCases.filter(flags.contains).map { ($0.rawValue, "1") }
    if !provider.isEmpty { items.append(("provider", provider)) }
    return items
  }

  /// Words for the page's title and count line: "confirmed, has a phone, provider google".
  func summary(_ side: ConsoleSide) -> String {
    var words = Flag.allCases.filter(flags.contains).map { $0.label(side) }
    if !provider.isEmpty { words.append("provider \(provider)") }
    return words.joined(separator: ", ")
  }
}

extension EmulatorConsole {
  static func facts(_ user: SBUser, micros: Micros) -> ConsoleFilters.Facts {
    var providers = user.identity.map { [$0.provider] } ?? []
    providers += user.otherIdentities.map(\.provider)
    return ConsoleFilters.Facts(
      confirmed: user.emailConfirmedAt != nil || user.phoneConfirmedAt != nil, anonymous: user.isAnonymous,
      disabled: user.isBanned(at: micros) || user.deletedAt != nil,
      secondFactor: user.factors.contains { $0.isVerified }, phone: !user.phone.isEmpty, providers: providers)
  }

  static func facts(_ user: FirebaseUser) -> ConsoleFilters.Facts {
    var providers: [String] = []
    if user.passwordHash != nil { providers.append("password") }
    if user.emailLinkSignin == true { providers.append("emailLink") }
    if user.phoneNumber != nil { providers.append("phone") }
    providers += user.federated.map(\.providerId)
    return ConsoleFilters.Facts(
      confirmed: user.emailVerified == true || user.phoneNumber != nil,
      anonymous: (user.email ?? "").isEmpty && providers.isEmpty, disabled: user.disabled == true,
      secondFactor: !user.mfaInfo.isEmpty, phone: user.phoneNumber != nil, providers: providers)
  }
}
