import Essentials
import JSONKit
import Synchronization

/// Every mail the emulator "sent", in order. Shared by both sides; persisted with `--state`.
package final class Outbox: Sendable {
  private let messages: Mutex<[OutboxMessage]>
  private let store: any DocumentStore
  private static let table = "outbox"

  package init(store: any DocumentStore = NullDocumentStore()) {
    self.store = store
    let loaded = (try? store.loadAll(Self.table)) ?? []
    messages = Mutex(
      loaded.compactMap { row in
        guard let message = Self.decode(row.document) else {
          store.noteUnreadable(Self.table, key: row.key)
          return nil
        }
        return message
      }.sorted { $0.time < $1.time })
  }

  package func record(_ message: OutboxMessage) {
    messages.withLock { messages in
      messages.append(message)
      try? store.put(Self.table, key: UUID().uuidString, Self.encode(message))
    }
  }

  /// Messages to this address (compared case-insensitively), oldest first; all when nil.
  package func messages(to email: String? = nil, side: OutboxMessage.Side? = nil) -> [OutboxMessage] {
    messages.withLock { messages in
      messages.filter { message in
        (email == nil || message.email.lowercased() == email?.lowercased())
          && (side == nil || message.side == side)
      }
    }
  }

  static func encode(_ message: OutboxMessage) -> JSON {
    [
      "side": .string(message.side.rawValue), "kind": .string(message.kind), "email": .string(message.email),
      "code": .string(message.code), "link": .string(message.link),
      "time": .double(message.time.timeIntervalSince1970),
    ]
  }

  static func decode(_ json: JSON) -> OutboxMessage? {
    guard let side = json["side"]?.string.flatMap(OutboxMessage.Side.init(rawValue:)),
      let kind = json["kind"]?.string, let email = json["email"]?.string,
      let code = json["code"]?.string, let link = json["link"]?.string, let time = json["time"]?.double
    else { return nil }
    return OutboxMessage(
      side: side, kind: kind, email: email, code: code, link: link,
      time: Date(timeIntervalSince1970: time))
  }
}
