// Foundation re-exports Dispatch and the C library on Linux; so does this module.
@_exported import Dispatch

// Data, Date, URL, the JSON coders, FileManager and ProcessInfo come from FoundationEssentials,
// never from Foundation proper: on Linux, one object that names an API of `Foundation` (an
// NSString method such as `range(of:)` or `String(format:)`, `FileHandle`, `NSRegularExpression`,
// `ISO8601DateFormatter`) links CoreFoundation and ICU with it, 44 MB of the static binary.
// Every module imports this one instead of Foundation; `Text.swift` holds the few string
// helpers Foundation would have brought.
#if canImport(FoundationEssentials)
  @_exported import FoundationEssentials
#else
  @_exported import Foundation
#endif

#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#endif
