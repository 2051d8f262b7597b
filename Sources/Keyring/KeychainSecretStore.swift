#if canImport(Security)
  import AuthCore
  import Foundation
  import Security

  /// The macOS login Keychain: generic-password items of service `authsh`, account
  /// `SecretItem.account`, readable only while the Mac is unlocked and never synced or migrated
  /// to another device (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`). No macOS machine runs
  /// this project's CI yet (the workflow in .github/workflows is there for one); kept small.
  package final class KeychainSecretStore: SecretStore, @unchecked Sendable {
    package let name = "the login Keychain"

    package init() {}

    private func query(_ item: SecretItem) -> [String: Any] {
      [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: SecretItem.service,
        kSecAttrAccount as String: item.account,
      ]
    }

    /// A locked Keychain that cannot prompt (an ssh session) answers errSecInteractionNotAllowed.
    package func unavailableReason() -> String? {
      var probe = query(SecretItem(kind: .serviceKey, name: "authsh-probe"))
      probe[kSecReturnData as String] = true
      let status = SecItemCopyMatching(probe as CFDictionary, nil)
      switch status {
      case errSecSuccess, errSecItemNotFound: return nil
      case errSecInteractionNotAllowed: return "the login Keychain is locked and cannot ask to be unlocked here"
      default: return "the login Keychain is not usable (\(Self.describe(status)))"
      }
    }

    package func read(_ item: SecretItem) throws -> String? {
      var search = query(item)
      search[kSecReturnData as String] = true
      search[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      let status = SecItemCopyMatching(search as CFDictionary, &result)
      if status == errSecItemNotFound { return nil }
      guard status == errSecSuccess else { throw failure("read", item, status) }
      guard let data = result as? Data else { return nil }
      return String(decoding: data, as: UTF8.self)
    }

    package func write(_ value: String, to item: SecretItem) throws {
      let data = Data(value.utf8)
      let status = SecItemUpdate(query(item) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
      if status == errSecSuccess { return }
      guard status == errSecItemNotFound else { throw failure("store", item, status) }
      var add = query(item)
      add[kSecValueData as String] = data
      add[kSecAttrLabel as String] = item.label
      add[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
      let added = SecItemAdd(add as CFDictionary, nil)
      guard added == errSecSuccess else { throw failure("store", item, added) }
    }

    @discardableResult
    package func delete(_ item: SecretItem) throws -> Bool {
      let status = SecItemDelete(query(item) as CFDictionary)
      if status == errSecItemNotFound { return false }
      guard status == errSecSuccess else { throw failure("delete", item, status) }
      return true
    }

    package func names(of kind: SecretItem.Kind) throws -> [String] {
      let search: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: SecretItem.service,
        kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
      ]
      var result: CFTypeRef?
      let status = SecItemCopyMatching(search as CFDictionary, &result)
      if status == errSecItemNotFound { return [] }
      guard status == errSecSuccess else {
        throw AuthError(.configError, message: "Could not list the secrets in \(name): \(Self.describe(status)).")
      }
      let prefix = kind.rawValue + ":"
      let accounts = (result as? [[String: Any]] ?? []).compactMap { $0[kSecAttrAccount as String] as? String }
      return accounts.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    private static func describe(_ status: OSStatus) -> String {
      (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
    }

    private func failure(_ action: String, _ item: SecretItem, _ status: OSStatus) -> AuthError {
      AuthError(
        .configError, message: "Could not \(action) \(item.label) in \(name): \(Self.describe(status)).",
        hint: "Unlock it (security unlock-keychain), or use --credential-store file.")
    }
  }
#endif
