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

  /// Whether an account passes: `has` answers each set flag and `hasProvider` the provider, and
  /// only what the filters ask is looked at (a scan of 100,000 accounts builds nothing per account).
  func admits(has: (Flag) -> Bool, hasProvider: (String) -> Bool) -> Bool {
    for flag in flags where !has(flag) { return false }
    return provider.isEmpty || hasProvider(provider)
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

extension ConsoleFilters {
  /// Supabase's account at `index` of `users`, its fields read through the dictionary: passing
  /// each account by value cost a copy of its every field (62 ms over 100,000 accounts).
  func admits(
    _ users: Dictionary<String, SBUser>.Values, _ index: Dictionary<String, SBUser>.Index, micros: Micros
  ) -> Bool {
    admits(
      has: { flag in
        switch flag {
        case .confirmed: return users[index].emailConfirmedAt != nil || users[index].phoneConfirmedAt != nil
        case .anonymous: return users[index].isAnonymous
        case .disabled: return (users[index].bannedUntil ?? .min) > micros || users[index].deletedAt != nil
        case .secondFactor: return users[index].factors.contains { $0.isVerified }
        case .phone: return !users[index].phone.isEmpty
        }
      },
      hasProvider: { provider in
        users[index].identity?.provider == provider || users[index].otherIdentities.contains { $0.provider == provider }
      })
  }

  func admits(_ user: FirebaseUser) -> Bool {
    admits(
      has: { flag in
        switch flag {
        case .confirmed: return user.emailVerified == true || user.phoneNumber != nil
        case .anonymous: return (user.email ?? "").isEmpty && !Self.hasAnyProvider(user)
        case .disabled: return user.disabled == true
        case .secondFactor: return !user.mfaInfo.isEmpty
        case .phone: return user.phoneNumber != nil
        }
      },
      hasProvider: { provider in
        switch provider {
        case "password": return user.passwordHash != nil
        case "emailLink": return user.emailLinkSignin == true
        case "phone": return user.phoneNumber != nil
        default: return user.federated.contains { $0.providerId == provider }
        }
      })
  }

  /// A password, an e-mail link, a phone or a federated identity: anything but anonymous.
  private static func hasAnyProvider(_ user: FirebaseUser) -> Bool {
    user.passwordHash != nil || user.emailLinkSignin == true || user.phoneNumber != nil || !user.federated.isEmpty
  }
}
