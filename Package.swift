// swift-tools-version:6.0
import PackageDescription

// Dependency arrows (each target imports only these):
//   authsh → ShellKit, AuthScript, Providers, AuthEmulator, LineEditor, NIOTransport, CurlTransport, SocketTransport, Keyring, PostgresExport
//   AuthScript → ShellKit
//   ShellKit → AuthCore, CQREncode (`mfa enroll`'s QR code), EmulatorFaults (`emulator --fault`); it reaches the backends through the
//     AuthProvider/AdminProvider protocols of AuthCore, which the executable fills with Providers
//   Providers → AuthCore → JSONKit, TOMLKit (config.toml), HostedLimits (also Providers), Crypto (HMAC-SHA1 of TOTP codes)
//   PostgresExport → AuthCore, JSONKit, CPq (`user export --db`: GoTrue's auth.users read directly through libpq, loaded at run time)
//   CurlTransport → AuthCore, CCurl (https:// through libcurl, loaded at run time)
//   SocketTransport → AuthCore (plain http:// with blocking socket calls, on the thread a script's task runs on)
//   Keyring → AuthCore (the platform keyring: libsecret loaded at run time on Linux, Security on macOS)
//   AuthEmulator → HTTPServerKit, JSONKit, CQREncode, HostedLimits, EmulatorFaults (never Providers: the emulator re-implements the wire on its own)
//   EmulatorFaults → JSONKit: a fault the emulator injects, in its `--fault` text and its JSON form
//   HostedLimits: the hosted products' numbers (quotas, lifetimes) that the emulator enforces and `diagnose` uses
//   LineEditor → CLibEdit, ShellKit (the only code that touches libedit)
let package = Package(
  name: "authsh",
  // macOS 15: Synchronization's Mutex (LineEditor) needs it.
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "authsh", targets: ["authsh"]),
    .executable(name: "redact-bench", targets: ["redact-bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
    .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", exact: "2.5.0"),
    .package(url: "https://github.com/LebJe/TOMLKit.git", exact: "0.6.0"),
    .package(url: "https://github.com/swift-extras/swift-extras-base64.git", exact: "1.2.0"),
  ],
  targets: [
    .target(name: "JSONKit"),
    // FoundationEssentials for everyone, never Foundation proper (it links 44 MB of ICU): see Exports.swift.
    .target(name: "Essentials"),
    .target(name: "HostedLimits"),
    // RFC 6238 codes and their base32 secrets: the emulator verifies, the client and scripts compute.
    .target(
      name: "OneTimeCode",
      dependencies: [
        "Essentials", .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "ExtrasBase64", package: "swift-extras-base64"),
      ]),
    .target(
      name: "AuthCore",
      dependencies: [
        "Essentials", "JSONKit", "HostedLimits", .product(name: "TOMLKit", package: "TOMLKit"),
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .target(
      name: "Providers",
      dependencies: [
        "Essentials", "AuthCore", "JSONKit", "HostedLimits", .product(name: "CryptoExtras", package: "swift-crypto"),
      ]),
    .target(
      name: "NIOTransport",
      dependencies: [
        "Essentials", "AuthCore",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    // Plain http:// on a script's own thread: blocking socket calls, no event loop (ThreadTaskExecutor).
    .target(name: "SocketTransport", dependencies: ["Essentials", "AuthCore"]),
    .target(name: "Keyring", dependencies: ["AuthCore"]),
    // libcurl for https://, loaded at run time (dlopen) by a small C shim: not linked, not at start-up.
    // dlopen of a library by the first of its names that loads, and its functions resolved: CCurl's and CPq's.
    .target(name: "CLoader"),
    // Not dumpable and no core file, set first thing in main (passwords and keys live in memory).
    .target(name: "CProcessGuard"),
    .target(name: "CCurl", dependencies: ["CLoader"]),
    .target(name: "CurlTransport", dependencies: ["Essentials", "AuthCore", "CCurl"]),
    // libpq for `user export --db`, loaded at run time (dlopen) by a small C shim like CCurl's.
    .target(name: "CPq", dependencies: ["CLoader"]),
    // Only the executable links it: PostgreSQL is needed by `user export --db` alone.
    .target(name: "PostgresExport", dependencies: ["Essentials", "AuthCore", "JSONKit", "CPq"]),
    .target(name: "EmulatorFaults", dependencies: ["JSONKit"]),
    .target(
      name: "ShellKit",
      dependencies: ["Essentials", "AuthCore", "JSONKit", "CQREncode", "EmulatorFaults", "OneTimeCode"]),
    .target(
      name: "AuthScript", dependencies: ["Essentials", "ShellKit", "AuthCore", "JSONKit", "OneTimeCode"]),
    .systemLibrary(name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    // libqrencode: the QR codes of TOTP enrolment (GoTrue's `totp.qr_code` SVG).
    .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
    .target(name: "LineEditor", dependencies: ["CLibEdit", "Essentials", "ShellKit"]),
    .target(
      name: "HTTPServerKit",
      dependencies: [
        "Essentials",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    .target(
      name: "AuthEmulator",
      dependencies: [
        "Essentials", "HTTPServerKit", "JSONKit", "CSQLite", "CQREncode", "HostedLimits", "EmulatorFaults",
        "OneTimeCode", "AuthCore", "Providers",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        .product(name: "ExtrasBase64", package: "swift-extras-base64"),
      ]),
    .executableTarget(
      name: "authsh",
      dependencies: [
        "Essentials", "ShellKit", "AuthScript", "Providers", "AuthCore", "AuthEmulator", "LineEditor", "NIOTransport",
        "Keyring",
        "PostgresExport", "CurlTransport", "SocketTransport", "CProcessGuard", "HTTPServerKit",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]),
    .executableTarget(name: "redact-bench", dependencies: ["AuthCore"], path: "bench/RedactBench"),
    .target(
      name: "AuthTestSupport",
      dependencies: ["HTTPServerKit", "AuthCore", "JSONKit", "AuthEmulator"],
      path: "Sources/AuthTestSupport"),
    .testTarget(name: "JSONKitTests", dependencies: ["JSONKit"]),
    .testTarget(name: "EssentialsTests", dependencies: ["Essentials"]),
    .testTarget(name: "OneTimeCodeTests", dependencies: ["OneTimeCode"]),
    .testTarget(
      name: "CurlTransportTests", dependencies: ["CurlTransport", "AuthCore", "AuthTestSupport", "HTTPServerKit"]),
    .testTarget(
      name: "SocketTransportTests", dependencies: ["SocketTransport", "AuthCore", "AuthTestSupport", "HTTPServerKit"]),
    .testTarget(
      name: "NIOTransportTests",
      dependencies: ["NIOTransport", "SocketTransport", "AuthCore", "AuthTestSupport", "HTTPServerKit"]),
    .testTarget(
      name: "AuthCoreTests", dependencies: ["AuthCore", "AuthTestSupport", "HostedLimits"], exclude: ["Config/Fixtures"]
    ),
    .testTarget(
      name: "ProvidersTests",
      dependencies: [
        "Providers", "AuthCore", "AuthTestSupport", "AuthEmulator", "HTTPServerKit", "JSONKit", "ShellKit",
        "NIOTransport", "CurlTransport", "SocketTransport", "OneTimeCode",
        .product(name: "CryptoExtras", package: "swift-crypto"),
      ],
      exclude: ["Fixtures", "Snapshots"]),
    .testTarget(name: "ShellKitTests", dependencies: ["ShellKit", "AuthTestSupport"]),
    .testTarget(name: "AuthScriptTests", dependencies: ["AuthScript", "ShellKit", "AuthTestSupport"]),
    .testTarget(
      name: "AuthEmulatorTests",
      dependencies: [
        "AuthEmulator", "AuthTestSupport", "HostedLimits", "OneTimeCode", "AuthCore", "Providers", "ShellKit",
      ]),
    .testTarget(
      name: "CLITests", dependencies: ["AuthTestSupport", "AuthEmulator", "HTTPServerKit", "JSONKit", "ShellKit"],
      exclude: ["Snapshots"]),
    .testTarget(name: "GoldenTests", dependencies: ["AuthTestSupport", "HTTPServerKit"], exclude: ["Scripts"]),
    .testTarget(name: "LineEditorTests", dependencies: ["LineEditor", "ShellKit"]),
    .testTarget(name: "KeyringTests", dependencies: ["Keyring", "AuthCore"]),
    .testTarget(name: "PostgresExportTests", dependencies: ["PostgresExport", "AuthCore", "JSONKit"]),
  ]
)

// A file sees the members only of the modules it imports itself: without this, Foundation's
// `StringProtocol.contains` (an NSString search) wins over the standard library's wherever any
// dependency imports Foundation, and that one call links 44 MB of ICU into the binary.
for target in package.targets where [.regular, .executable, .test].contains(target.type) {
  target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
