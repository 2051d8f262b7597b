/// The ban a record asks for. `user export` writes an active ban as `disabled: true` with its end
/// in `banned_until`; `auth.users` has only `banned_until`, which may be past; Firebase has only
/// `disabled`, which has no end.
extension PortableAccount {
  package enum Ban: Sendable, Equatable {
    /// Banned until this Unix time.
    case until(Int)
    /// Disabled with no end.
    case forever
  }

  /// The ban in force at `now`: an end decides when there is one (an end that has passed is no
  /// ban, whatever `disabled` says); without an end, `disabled` is a ban with none.
  package func ban(at now: Int) -> Ban? {
    if let until = bannedUntil.flatMap(UnixTime.parseISO) { return until > now ? .until(until) : nil }
    return disabled == true ? .forever : nil
  }
}
