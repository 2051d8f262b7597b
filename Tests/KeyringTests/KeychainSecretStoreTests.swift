import AuthCore
import Foundation
import Testing

@testable import Keyring

#if canImport(Security)
  /// The login Keychain of the machine running the tests (the macOS workflow's runner): an item
  /// of a name no one else uses is written, read, listed, replaced and deleted.
  @Suite struct KeychainSecretStoreTests {
    @Test func roundTrip() throws {
      let store = KeychainSecretStore()
      try #require(store.unavailableReason() == nil, "the login Keychain is not usable here")
      let item = SecretItem.serviceKey("authsh-test-\(UUID().uuidString)")
      defer { _ = try? store.delete(item) }
      #expect(try store.read(item) == nil)
      try store.write("first", to: item)
      try store.write("second", to: item)
      #expect(try store.read(item) == "second")
      #expect(try store.names(of: .serviceKey).contains(item.name))
      #expect(try store.delete(item))
      #expect(try store.read(item) == nil)
      #expect(try !store.delete(item))
    }
  }
#endif
