import AuthCore
import Essentials
import JSONKit

/// An uploaded account file read and checked as `authsh user import` reads and checks it (pass 1:
/// the same reader, the same checks, the same duplicate rule), before anything is sent.
struct ConsoleImportPlan {
  /// At most this many bytes an upload: the preview sends the file back with its confirmation
  /// (base64, a third longer), and the emulator reads request bodies of up to 1 MB.
  static let uploadLimit = 512 * 1024

  var format: AccountFileFormat
  var checks: [ImportCheck]
  var tally: ImportDryRunTally

  /// The file checked for `target`, or why it is refused (nothing is sent for a refused file).
  static func make(_ bytes: [UInt8], target: ProviderKind, consent: ImportConsent, now: Int) -> Result<
    ConsoleImportPlan, ConsoleImportRefusal
  > {
    guard bytes.count <= uploadLimit else { return .failure(.tooLarge) }
    let text = String(decoding: bytes, as: UTF8.self)
    guard Array(text.utf8) == bytes else { return .failure(.unreadable("the file is not UTF-8 text")) }
    let format: AccountFileFormat
    let accounts: [PortableAccount]
    do {
      (format, accounts) = try PortableAccountReader.read(text)
    } catch let error as PortableAccountError {
      return .failure(.unreadable(error.message))
    } catch {
      return .failure(.unreadable("\(error)"))
    }
    guard !accounts.isEmpty else { return .failure(.empty) }
    var tally = ImportDryRunTally(provider: target)
    var duplicates = ImportDuplicates()
    var checks: [ImportCheck] = []
    var unhashed = 0
    for account in accounts {
      var checked = ImportCheck(account, target: target, consent: consent, now: now)
      if duplicates.isDuplicate(account) { checked.markDuplicate() }
      if account.passwordNote == PortableAccountReader.missingHashConfig { unhashed += 1 }
      tally.add(checked)
      checks.append(checked)
    }
    if unhashed > 0 { return .failure(.missingHashConfig(unhashed)) }
    return .success(ConsoleImportPlan(format: format, checks: checks, tally: tally))
  }

  /// Sends the accounts that pass (as `user import` does: none held back or refused), and the
  /// outcome of every account of the file, in its order.
  func run(_ importer: any AccountImporter) async -> [ImportOutcome] {
    let todo = checks.filter(\.willSend)
    var sent: [ImportOutcome] = []
    if !todo.isEmpty { sent = await importer.importAccounts(todo.map(\.account), jobs: 8, stop: nil) { _ in } }
    for index in sent.indices where sent[index].status == .imported && todo.indices.contains(sent[index].index) {
      sent[index].losses = todo[sent[index].index].losses
    }
    let held = checks.filter { !$0.willSend }.map(ImportOutcome.notSent)
    return sent + held
  }

  /// What happens to one account of the preview: "would be created", or held back or refused and why.
  static func fate(_ checked: ImportCheck) -> (word: String, why: String) {
    if let refused = checked.refused { return ("refused", refused) }
    if let held = checked.heldBack { return ("held back", held) }
    return ("would be created", checked.withoutPassword.map { "without a password: " + $0 } ?? "")
  }
}

/// Why an uploaded file is refused whole (nothing is created).
enum ConsoleImportRefusal: Error, Equatable {
  case tooLarge, empty
  case unreadable(String)
  case missingHashConfig(Int)

  var status: Int { self == .tooLarge ? 413 : 400 }

  var message: String {
    switch self {
    case .tooLarge: return ConsoleTransferPages.uploadTooLarge
    case .empty: return "The file has no accounts; nothing was created."
    case .unreadable(let why): return "The file was refused, nothing was created: \(why)."
    case .missingHashConfig(let count):
      return "\(count) account\(count == 1 ? "" : "s") of the file carry Firebase scrypt hashes without their "
        + "parameters; nothing was created. Import it with `authsh user import FILE --hash-config HASH.json`."
    }
  }
}
