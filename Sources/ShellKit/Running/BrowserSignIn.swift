import AuthCore

/// The browser half of `login --oauth` (set by the executable; tests give their own): a loopback
/// address the provider sends the browser back to, as `gh auth login --web` listens for it.
package protocol BrowserSignIn: Sendable {
  /// Starts listening on loopback; the callback address (`http://127.0.0.1:PORT/callback`).
  func listen() async throws -> String
  /// Sends the person to `url`: a browser where there is a display, and always the address on
  /// standard error, to open by hand (or on another machine's browser through a tunnel).
  func show(_ url: String, provider: String)
  /// The whole address the browser came back to (`…/callback?code=…`). Ctrl-C or no answer in
  /// time ends the wait with `cancelled` or `timeout`.
  func callback() async throws -> String
  func close() async
}
