import AuthCore
import Foundation

// Secret masking on near misses: a 4,000-character key and lines of 16,000 and 100,000
// characters that almost contain it everywhere. `--baseline` also times masking by
// `replacingOccurrences` per secret (the former implementation; the 100,000 case takes minutes).

let key = String(repeating: "k", count: 3_999) + "!"
let baseline = CommandLine.arguments.contains("--baseline")

func seconds(_ body: () -> String) -> (Double, String) {
  let start = DispatchTime.now().uptimeNanoseconds
  let result = body()
  return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, result)
}

let redactor = Redactor()
redactor.register(key)
for length in [16_000, 100_000] {
  let line = String(repeating: "k", count: length - key.count) + key
  let (time, masked) = seconds { redactor.redact(line) }
  let correct = masked == String(repeating: "k", count: length - key.count) + Redactor.mask
  print("key 4,000 chars, line \(length) chars: \(String(format: "%.4f", time)) s\(correct ? "" : "  WRONG RESULT")")
  if baseline {
    let (old, _) = seconds { line.contains(key) ? line.replacingOccurrences(of: key, with: Redactor.mask) : line }
    print("  former replacingOccurrences: \(String(format: "%.2f", old)) s")
  }
}
