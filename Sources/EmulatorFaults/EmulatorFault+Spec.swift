extension EmulatorFault {
  /// Parses the `--fault` flag: `"METHOD PATH STATUS|PRESET[xN]"`, e.g. `"POST /auth/v1/token 429x3"`,
  /// `"GET /auth/v1/user html502"`, `"* /auth/v1/token drop"`. METHOD `*` (or `ANY`) matches any
  /// method; `xN` applies the fault to N requests (default 1; `x0` = until cleared).
  package static func parse(spec: String) throws -> EmulatorFault {
    let words = spec.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard words.count == 3 else {
      throw EmulatorFaultError("fault \"\(spec)\": expected \"METHOD PATH STATUS|PRESET[xN]\"")
    }
    let method = words[0].uppercased()
    guard method == "*" || method == "ANY" || method.allSatisfy({ $0.isLetter }) else {
      throw EmulatorFaultError("fault \"\(spec)\": bad method \"\(words[0])\"")
    }
    let path = words[1]
    guard path.hasPrefix("/") else { throw EmulatorFaultError("fault \"\(spec)\": path must start with /") }

    var action = Substring(words[2])
    var times = 1
    if let marker = action.lastIndex(where: { $0 == "x" || $0 == "X" }) {
      let digits = action[action.index(after: marker)...]
      if !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int(digits) {
        times = count
        action = action[..<marker]
      }
    }
    var fault = EmulatorFault(method: method == "*" || method == "ANY" ? nil : method, path: path, times: times)
    if let status = Int(action) {
      fault.status = status
    } else if let preset = Preset(rawValue: String(action).lowercased()) {
      fault.preset = preset
    } else {
      let names = Preset.allCases.map(\.rawValue).joined(separator: ", ")
      throw EmulatorFaultError("fault \"\(spec)\": \"\(action)\" is neither a status nor a preset (\(names))")
    }
    try fault.validate()
    return fault
  }
}
