import AuthCore
import Testing

@testable import Keyring

#if os(Linux)
  @Suite struct LibSecretStoreTests {
    /// Without a session bus libsecret is never asked (GLib would try to autolaunch one): the
    /// store says what is missing, and `auto` falls back to the file on that.
    @Test func noSessionBusIsNamed() {
      let store = LibSecretStore(environment: ["HOME": "/nonexistent", "XDG_RUNTIME_DIR": "/nonexistent"])
      let reason = store.unavailableReason()
      #expect(
        reason == "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
          || reason?.contains("could not be loaded") == true)
    }

    /// The schema handed to libsecret: the name, DONT_MATCH_NAME, every attribute of SecretItem
    /// as a string attribute, then a NULL name ending the list.
    @Test func schemaLayout() {
      let schema = LibSecret.makeSchema(name: "io.authsh.Test", attributes: SecretItem.attributeNames)
      #expect(String(cString: schema.load(as: UnsafePointer<CChar>.self)) == "io.authsh.Test")
      #expect(schema.load(fromByteOffset: 8, as: Int32.self) == 2)
      var names: [String] = []
      for index in 0..<32 {
        let offset = SecretSchemaLayout.attributesOffset + index * SecretSchemaLayout.attributeSize
        guard let name = schema.load(fromByteOffset: offset, as: UnsafePointer<CChar>?.self) else { break }
        #expect(schema.load(fromByteOffset: offset + 8, as: Int32.self) == 0)
        names.append(String(cString: name))
      }
      #expect(names == SecretItem.attributeNames)
      #expect(SecretSchemaLayout.size == 592)
    }
  }
#endif
