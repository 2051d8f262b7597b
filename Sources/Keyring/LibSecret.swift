#if os(Linux)
  import AuthCore
  @preconcurrency import Glibc

  /// libsecret and the few GLib calls it needs, loaded at run time (`dlopen`): neither the binary
  /// nor the `.deb` depends on libsecret (the package recommends it). Only the non-variadic
  /// `…v_sync` calls are used (Swift cannot call C variadics); their attributes are a GHashTable
  /// of C strings.
  final class LibSecret: @unchecked Sendable {
    typealias ErrorOut = UnsafeMutablePointer<UnsafeMutableRawPointer?>
    typealias StoreV =
      @convention(c) (
        UnsafeRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        UnsafeMutableRawPointer?, ErrorOut?
      ) -> Int32
    typealias LookupV =
      @convention(c) (UnsafeRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?, ErrorOut?) ->
      UnsafeMutablePointer<CChar>?
    typealias ClearV = @convention(c) (UnsafeRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?, ErrorOut?) -> Int32
    typealias SearchV =
      @convention(c) (UnsafeRawPointer?, OpaquePointer?, Int32, UnsafeMutableRawPointer?, ErrorOut?) ->
      UnsafeMutableRawPointer?
    typealias PasswordFree = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    typealias GetAttributes = @convention(c) (UnsafeMutableRawPointer?) -> OpaquePointer?
    typealias ServiceGet = @convention(c) (Int32, UnsafeMutableRawPointer?, ErrorOut?) -> UnsafeMutableRawPointer?
    typealias CollectionForAlias =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?, ErrorOut?
      ) -> UnsafeMutableRawPointer?
    typealias GetLocked = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias HashTableNew = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
    typealias HashTableInsert =
      @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    typealias HashTableLookup = @convention(c) (OpaquePointer?, UnsafeRawPointer?) -> UnsafeMutableRawPointer?
    typealias HashTableUnref = @convention(c) (OpaquePointer?) -> Void
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias ListFreeFull = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

    /// The soname of libsecret's stable ABI.
    static let soname = "libsecret-1.so.0"

    let storev: StoreV
    let lookupv: LookupV
    let clearv: ClearV
    /// libsecret 0.19 and later.
    let searchv: SearchV?
    let passwordFree: PasswordFree
    let retrievableAttributes: GetAttributes?
    let serviceGet: ServiceGet
    let collectionForAlias: CollectionForAlias
    let collectionLocked: GetLocked
    let hashTableNew: HashTableNew
    let hashTableInsert: HashTableInsert
    let hashTableLookup: HashTableLookup
    let hashTableUnref: HashTableUnref
    let errorFree: Free
    let objectUnref: Free
    /// `g_object_unref` as a GDestroyNotify, `g_str_hash`, `g_str_equal`: passed as pointers.
    let objectUnrefPointer: UnsafeMutableRawPointer
    let strHash: UnsafeMutableRawPointer
    let strEqual: UnsafeMutableRawPointer
    let listFreeFull: ListFreeFull
    /// The schema every item is stored with (attributes of `SecretItem`), built in memory once.
    let schema: UnsafeRawPointer

    /// nil when libsecret (or a symbol authsh needs) is not there.
    init?() {
      guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else { return nil }
      // dlsym on libsecret's handle also finds the symbols of its dependencies (GLib, GObject).
      func symbol<T>(_ name: String, _ type: T.Type) -> T? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
      }
      guard let storev = symbol("secret_password_storev_sync", StoreV.self),
        let lookupv = symbol("secret_password_lookupv_sync", LookupV.self),
        let clearv = symbol("secret_password_clearv_sync", ClearV.self),
        let passwordFree = symbol("secret_password_free", PasswordFree.self),
        let serviceGet = symbol("secret_service_get_sync", ServiceGet.self),
        let collectionForAlias = symbol("secret_collection_for_alias_sync", CollectionForAlias.self),
        let collectionLocked = symbol("secret_collection_get_locked", GetLocked.self),
        let hashTableNew = symbol("g_hash_table_new", HashTableNew.self),
        let hashTableInsert = symbol("g_hash_table_insert", HashTableInsert.self),
        let hashTableLookup = symbol("g_hash_table_lookup", HashTableLookup.self),
        let hashTableUnref = symbol("g_hash_table_unref", HashTableUnref.self),
        let errorFree = symbol("g_error_free", Free.self),
        let objectUnref = symbol("g_object_unref", Free.self),
        let listFreeFull = symbol("g_list_free_full", ListFreeFull.self),
        let objectUnrefPointer = dlsym(handle, "g_object_unref"),
        let strHash = dlsym(handle, "g_str_hash"), let strEqual = dlsym(handle, "g_str_equal")
      else { return nil }
      self.storev = storev
      self.lookupv = lookupv
      self.clearv = clearv
      self.searchv = symbol("secret_password_searchv_sync", SearchV.self)
      self.passwordFree = passwordFree
      self.retrievableAttributes = symbol("secret_retrievable_get_attributes", GetAttributes.self)
      self.serviceGet = serviceGet
      self.collectionForAlias = collectionForAlias
      self.collectionLocked = collectionLocked
      self.hashTableNew = hashTableNew
      self.hashTableInsert = hashTableInsert
      self.hashTableLookup = hashTableLookup
      self.hashTableUnref = hashTableUnref
      self.errorFree = errorFree
      self.objectUnref = objectUnref
      self.objectUnrefPointer = objectUnrefPointer
      self.strHash = strHash
      self.strEqual = strEqual
      self.listFreeFull = listFreeFull
      self.schema = Self.makeSchema(name: "io.authsh.Secret", attributes: SecretItem.attributeNames)
    }

    /// A `SecretSchema` in memory: `{ const gchar *name; SecretSchemaFlags flags;
    /// SecretSchemaAttribute attributes[32]; gint reserved; gpointer reserved1…7; }`, each
    /// attribute `{ const gchar *name; SecretSchemaAttributeType type; }` (type 0: string). Kept
    /// for the life of the process; `reserved = 0` tells libsecret it is static (not refcounted).
    static func makeSchema(name: String, attributes: [String]) -> UnsafeRawPointer {
      let memory = UnsafeMutableRawPointer.allocate(byteCount: SecretSchemaLayout.size, alignment: 8)
      memory.initializeMemory(as: UInt8.self, repeating: 0, count: SecretSchemaLayout.size)
      memory.storeBytes(of: UnsafePointer(strdup(name)), toByteOffset: 0, as: UnsafePointer<CChar>?.self)
      memory.storeBytes(of: SecretSchemaLayout.dontMatchName, toByteOffset: 8, as: Int32.self)
      for (index, attribute) in attributes.prefix(31).enumerated() {
        let offset = SecretSchemaLayout.attributesOffset + index * SecretSchemaLayout.attributeSize
        memory.storeBytes(of: UnsafePointer(strdup(attribute)), toByteOffset: offset, as: UnsafePointer<CChar>?.self)
        memory.storeBytes(of: Int32(0), toByteOffset: offset + 8, as: Int32.self)
      }
      return UnsafeRawPointer(memory)
    }

    /// Runs `body` with a GHashTable of the attributes (C strings owned here, freed after).
    func withAttributes<T>(_ pairs: [(name: String, value: String)], _ body: (OpaquePointer?) throws -> T) rethrows -> T
    {
      let table = hashTableNew(strHash, strEqual)
      var owned: [UnsafeMutablePointer<CChar>] = []
      for pair in pairs {
        guard let key = strdup(pair.name), let value = strdup(pair.value) else { continue }
        owned += [key, value]
        _ = hashTableInsert(table, UnsafeMutableRawPointer(key), UnsafeMutableRawPointer(value))
      }
      defer {
        hashTableUnref(table)
        for pointer in owned { free(pointer) }
      }
      return try body(table)
    }

    /// The message of a GError (`{ GQuark domain; gint code; gchar *message; }`), which is freed.
    func take(_ error: UnsafeMutableRawPointer?) -> String? {
      guard let error else { return nil }
      defer { errorFree(error) }
      let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self)
      return message.map { String(cString: $0) } ?? "unknown error"
    }
  }

  /// The layout of `SecretSchema` on LP64 (Linux on x86_64 and arm64).
  enum SecretSchemaLayout {
    static let attributesOffset = 16
    static let attributeSize = 16
    /// name, flags (+4 padding), 32 attributes, reserved (+4 padding), 7 reserved pointers.
    static let size = 16 + 32 * 16 + 8 + 7 * 8
    /// `SECRET_SCHEMA_DONT_MATCH_NAME`: items are found by their attributes alone.
    static let dontMatchName: Int32 = 1 << 1
  }
#endif
