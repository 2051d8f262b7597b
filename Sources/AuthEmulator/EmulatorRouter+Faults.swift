import EmulatorFaults
import HTTPServerKit
import JSONKit

/// `/emulator/v1/faults`: `GET` lists, `PUT {"faults":[…]}` replaces, `POST` appends one fault
/// (a fault object, or `{"faults":[…]}` to append several), `DELETE` clears. Every answer is the
/// resulting list, `{"faults":[…]}`, with `times` counting what is left.
extension EmulatorRouter {
  static func faultsResponse(_ request: ServerRequest, faults: FaultInjector) -> ServerResponse {
    do {
      switch request.method {
      case "GET":
        break
      case "DELETE":
        faults.clear()
      case "PUT":
        faults.replace(with: try parseFaults(request.body, allowSingle: false))
      case "POST":
        for fault in try parseFaults(request.body, allowSingle: true) { faults.append(fault) }
      default:
        return ServerResponse(status: 405, headers: [("Allow", "GET, PUT, POST, DELETE")])
      }
    } catch {
      let body: JSON = ["error": .string(String(describing: error))]
      return ServerResponse(status: 400, headers: [("Content-Type", "application/json")], body: body.bytes)
    }
    let body: JSON = ["faults": .array(faults.all.map(\.jsonValue))]
    return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: body.bytes)
  }

  static func parseFaults(_ body: [UInt8], allowSingle: Bool) throws -> [EmulatorFault] {
    let json: JSON
    do {
      json = try JSON.parse(bytes: body)
    } catch {
      throw EmulatorFaultError("body is not JSON: \(error)")
    }
    if let list = json["faults"] {
      guard let items = list.array else { throw EmulatorFaultError("faults must be an array") }
      return try items.map { try EmulatorFault(json: $0) }
    }
    if allowSingle { return [try EmulatorFault(json: json)] }
    throw EmulatorFaultError(#"expected {"faults":[…]}"#)
  }
}
