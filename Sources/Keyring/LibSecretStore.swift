#if os(Linux)
  import AuthCore
  import Foundation
  @preconcurrency import Glibc
  import Synchronization

  /// The freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC) through libsecret. Items
  /// go to the default collection with the attributes of `SecretItem` (`service=authsh`, `kind`,
  /// `backend` and `file`, or `name`), so `secret-tool search service authsh` lists them.
  ///
  /// Never prompts where no prompt can be answered: without a D-Bus session bus libsecret is not
  /// even asked (GLib would try to autolaunch one), and a locked or missing default keyring counts
  /// as unavailable unless a desktop session (DISPLAY, WAYLAND_DISPLAY) can show the unlock prompt.
  package final class LibSecretStore: SecretStore, Sendable {
    package let name = "the Secret Service keyring"
    private let environment: [String: String]
    /// libsecret's sync calls are made one at a time.
    private let calls = Mutex(())
    /// libsecret and GLib, loaded on first use: a command that never reads the keyring (a file
    /// store, `--version`) does not pay for eleven libraries and GLib's type system. nil until the
    /// first use; then the library, or `.some(nil)` when it could not be loaded.
    private let loadedLibrary = Guarded<LibSecret??>(nil)

    package init(environment: [String: String]) {
      self.environment = environment
    }

    private var library: LibSecret? {
      loadedLibrary.update { state in
        if case .none = state { state = .some(LibSecret()) }
        return state ?? nil
      }
    }

    private func variable(_ name: String) -> String? {
      guard let value = environment[name], !value.isEmpty else { return nil }
      return value
    }

    package func unavailableReason() -> String? {
      guard let library = self.library else {
        return "\(LibSecret.soname) could not be loaded (install libsecret-1-0, or the package that provides it)"
      }
      if variable("DBUS_SESSION_BUS_ADDRESS") == nil {
        var info = stat()
        let runtimeBus = variable("XDG_RUNTIME_DIR").map { $0 + "/bus" }
        if runtimeBus.map({ stat($0, &info) != 0 || info.st_mode & S_IFMT != S_IFSOCK }) ?? true {
          return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
        }
      }
      let canPrompt = variable("DISPLAY") != nil || variable("WAYLAND_DISPLAY") != nil
      // A D-Bus error is asked again (a busy or just-activated daemon); a state is not.
      let answer = retried { () throws(KeyringFailure) -> String? in
        try serially { () throws(KeyringFailure) -> String? in
          var error: UnsafeMutableRawPointer?
          // SECRET_SERVICE_LOAD_COLLECTIONS: asks the service itself, so a bus without one fails here.
          guard let service = library.serviceGet(1 << 2, nil, &error) else {
            throw KeyringFailure(
              reason: "no Secret Service on the D-Bus session bus (\(library.take(error) ?? "no answer"))")
          }
          defer { library.objectUnref(service) }
          guard let collection = library.collectionForAlias(service, "default", 0, nil, &error) else {
            if let message = library.take(error) {
              throw KeyringFailure(reason: "the Secret Service failed: \(message)")
            }
            return canPrompt
              ? nil : "the Secret Service has no default keyring, and creating one needs a desktop session"
          }
          defer { library.objectUnref(collection) }
          if library.collectionLocked(collection) != 0, !canPrompt {
            return
              "the default keyring is locked, and unlocking it needs a desktop session (no DISPLAY or WAYLAND_DISPLAY)"
          }
          return nil
        }
      }
      switch answer {
      case .success(let reason): return reason
      case .failure(let failure): return failure.reason
      }
    }

    package func read(_ item: SecretItem) throws -> String? {
      let library = try loaded()
      return try retried {
        try serially {
          var error: UnsafeMutableRawPointer?
          let value = library.withAttributes(item.attributes) { library.lookupv(library.schema, $0, nil, &error) }
          if let message = library.take(error) { throw failure("read", item, message) }
          guard let value else { return nil }
          defer { library.passwordFree(value) }
          return String(cString: value)
        }
      }.get()
    }

    package func write(_ value: String, to item: SecretItem) throws {
      let library = try loaded()
      try retried {
        try serially {
          var error: UnsafeMutableRawPointer?
          let stored = library.withAttributes(item.attributes) {
            library.storev(library.schema, $0, nil, item.label, value, nil, &error)
          }
          if let message = library.take(error) { throw failure("store", item, message) }
          if stored == 0 { throw failure("store", item, "it refused") }
        }
      }.get()
    }

    @discardableResult
    package func delete(_ item: SecretItem) throws -> Bool {
      let library = try loaded()
      return try retried {
        try serially {
          var error: UnsafeMutableRawPointer?
          let removed = library.withAttributes(item.attributes) { library.clearv(library.schema, $0, nil, &error) }
          if let message = library.take(error) { throw failure("delete", item, message) }
          return removed != 0
        }
      }.get()
    }

    package func names(of kind: SecretItem.Kind) throws -> [String] {
      let library = try loaded()
      guard let searchv = library.searchv, let attributesOf = library.retrievableAttributes else {
        throw AuthError(.configError, message: "Listing secrets needs libsecret 0.19 or later.")
      }
      return try serially {
        var error: UnsafeMutableRawPointer?
        let query = [(name: "service", value: SecretItem.service), (name: "kind", value: kind.rawValue)]
        // SECRET_SEARCH_ALL: every match, locked ones too (their attributes are readable).
        let list = library.withAttributes(query) { searchv(library.schema, $0, 1 << 1, nil, &error) }
        if let message = library.take(error) {
          throw AuthError(.configError, message: "Could not list the secrets in \(name): \(message).")
        }
        defer { if let list { library.listFreeFull(list, library.objectUnrefPointer) } }
        let key = kind == .session ? "backend" : "name"
        var names: [String] = []
        var node = list
        while let current = node {
          // GList: { gpointer data; GList *next; GList *prev; }
          let data = current.load(as: UnsafeMutableRawPointer?.self)
          if let table = attributesOf(data) {
            let value = key.withCString { library.hashTableLookup(table, $0) }
            if let value { names.append(String(cString: value.assumingMemoryBound(to: CChar.self))) }
            library.hashTableUnref(table)
          }
          node = current.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeMutableRawPointer?.self)
        }
        return Array(Set(names)).sorted()
      }
    }

    /// `body`, asked up to three times while it fails (0.2 s, then 0.6 s apart): a D-Bus error from
    /// a daemon that is busy or still starting is seldom the last word. Every call here is one a
    /// repeat cannot double (a lookup, a store that replaces, a clear).
    private func retried<T, E: Error>(_ body: () throws(E) -> T) -> Result<T, E> {
      var pause: useconds_t = 200_000
      for _ in 1..<3 {
        if case .success(let value) = Result(catching: body) { return .success(value) }
        usleep(pause)
        pause *= 3
      }
      return Result(catching: body)
    }

    /// Runs `body` with no other libsecret call in flight.
    private func serially<T: Sendable, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
      try calls.withLock { _ throws(E) -> T in try body() }
    }

    private func loaded() throws -> LibSecret {
      guard let library = self.library else {
        throw AuthError(
          .configError, message: "\(LibSecret.soname) could not be loaded.",
          hint: "Install libsecret (Debian, Ubuntu: apt install libsecret-1-0), or use --credential-store file.")
      }
      return library
    }

    /// A D-Bus failure while asking whether the keyring can be used (its text is the reason).
    private struct KeyringFailure: Error { let reason: String }

    /// Never quotes the value; names the item by kind and name.
    private func failure(_ action: String, _ item: SecretItem, _ message: String) -> AuthError {
      AuthError(
        .configError, message: "Could not \(action) \(item.label) in \(name): \(message).",
        hint:
          "Check that the keyring is unlocked (secret-tool search service \(SecretItem.service)), or use --credential-store file."
      )
    }
  }
#endif
