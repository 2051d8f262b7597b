import AuthCore

extension Command {
  /// Saves a session the server has just issued: what cannot be written (a full disk) is an I/O
  /// failure (exit 74) that says what already happened on the server.
  func savedAfterSignIn(_ done: String, _ save: () throws -> Void) throws {
    do {
      try save()
    } catch let error as AuthError {
      throw AuthError(
        .sessionNotSaved, message: "\(done), but the session could not be saved: \(error.message)", hint: error.hint)
    }
  }

  /// A validation error plus "Password is required" (no source and no terminal).
  func withMissingPassword(_ error: AuthError) -> AuthError {
    guard error.field(.password) == nil else { return error }
    var fields = error.fields
    fields.append(FieldError(.password, code: "password_required", message: "Password is required"))
    let order = Field.allCases
    fields.sort { (order.firstIndex(of: $0.field) ?? 0) < (order.firstIndex(of: $1.field) ?? 0) }
    return AuthError(.validationFailed, message: fields.map(\.message).joined(separator: "; "), fields: fields)
  }
}
