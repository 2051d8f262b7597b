// TEMPORARY entry point: replaced by the table-driven CLI. Only `authsh emulator` works here.
import AuthEmulator
import Foundation

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "emulator" else { fail(EmulatorOptions.usage, code: 64) }
let options: EmulatorOptions
do {
  options = try EmulatorOptions.parse(arguments: Array(arguments.dropFirst()))
} catch {
  fail("authsh emulator: \(error)\n\n\(EmulatorOptions.usage)", code: 64)
}
if options.help {
  print(EmulatorOptions.usage)
  exit(0)
}
let emulator: Emulator
do {
  emulator = try Emulator(config: options.config)
  try await emulator.start()
} catch {
  fail("authsh emulator: cannot start: \(error)", code: 1)
}
print(emulator.banner(), terminator: "")
fflush(nil)
await emulator.waitUntilClosed()
