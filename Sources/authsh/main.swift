// TEMPORARY entry point: replaced by the table-driven CLI. Only `authsh emulator` works here.
import AuthEmulator
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "emulator" else {
  FileHandle.standardError.write("usage: authsh emulator [--host H] [--port N] [--project P] [--jwt-secret S] [--confirm-email] [--email-privacy] [--state FILE]\n".data(using: .utf8)!)
  exit(64)
}
var config = EmulatorConfig()
var rest = arguments.dropFirst()[...]
while let flag = rest.popFirst() {
  switch flag {
  case "--host": config.host = rest.popFirst() ?? config.host
  case "--port": config.port = Int(rest.popFirst() ?? "") ?? config.port
  case "--project": config.project = rest.popFirst() ?? config.project
  case "--jwt-secret": config.jwtSecret = rest.popFirst() ?? config.jwtSecret
  case "--confirm-email": config.confirmEmail = true
  case "--email-privacy": config.emailPrivacy = true
  case "--state": config.statePath = rest.popFirst()
  default:
    FileHandle.standardError.write("unknown flag \(flag)\n".data(using: .utf8)!)
    exit(64)
  }
}
let emulator = try Emulator(config: config)
try await emulator.start()
print("authsh emulator listening on \(emulator.baseURL)")
fflush(nil)
await emulator.waitUntilClosed()
