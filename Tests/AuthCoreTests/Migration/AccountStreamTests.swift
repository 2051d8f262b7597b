import AuthCore
import Testing

@Suite("user import: the account stream")
struct AccountStreamTests {
  func read(_ text: String) throws -> (AccountFileFormat, [String]) {
    let stream = AccountStream(text: text, hashConfig: nil)
    var emails: [String] = []
    while let account = try stream.next() { emails.append(account.email ?? account.id ?? "?") }
    return (stream.format, emails)
  }

  @Test func firebaseJSONInEveryLayoutGivesTheSameAccounts() throws {
    let layouts = [
      #"{"users":[{"localId":"a","email":"a@x.io"},{"localId":"b","email":"b@x.io"}]}"#,
      "{\"users\": [\n{\"localId\":\"a\",\"email\":\"a@x.io\"},\n{\"localId\":\"b\",\"email\":\"b@x.io\"}\n]}\n",
      """
      {
        "kind": "export {not [a] list}",
        "users": [
          {
            "localId": "a", "email": "a@x.io",
            "displayName": "Brace } and \\" quote ]",
            "providerUserInfo": [{"providerId": "google.com", "rawId": "1"}]
          },
          { "localId": "b", "email": "b@x.io", "customAttributes": "{\\"users\\":[1]}" }
        ],
        "trailer": {"users": "not these"}
      }
      """,
    ]
    for text in layouts {
      let (format, emails) = try read(text)
      #expect(format == .firebase)
      #expect(emails == ["a@x.io", "b@x.io"])
    }
  }

  @Test func aFirebaseFileCutShortOrWithoutUsersIsNoExport() {
    #expect(throws: PortableAccountError.self) { try read(#"{"users":[{"localId":"a","email":"a@x.io"}"#) }
    #expect(throws: PortableAccountError.self) { try read("{\"users\": [\n{\"localId\":\"a\"},\n7\n]}") }
    #expect(throws: PortableAccountError.self) { try read("{\"accounts\": [\n{\"localId\":\"a\"}\n]}") }
  }

  @Test func anElementThatIsNotAnObjectIsNamedByItsPlaceInTheWholeList() {
    let text = "{\"users\": [\n{\"localId\":\"a\"},\n{\"localId\":\"b\"},\n7\n]}"
    #expect(throws: PortableAccountError("users[2] (line 4) is not an object")) { try read(text) }
  }

  @Test func bytesThatAreNotTextNameTheirLine() {
    var lines = [Array(#"{"email":"a@x.io"}"#.utf8), [0x7B, 0x22, 0xE9, 0x22, 0x7D]].makeIterator()
    let stream = AccountStream(hashConfig: nil) { lines.next() }
    #expect(throws: Never.self) { _ = try stream.next() }
    #expect(throws: AccountStream.NotText(line: 2)) { _ = try stream.next() }
  }

  @Test func everyFormatIsToldFromItsContent() throws {
    #expect(try read("\u{FEFF}{\"email\":\"a@x.io\"}\n\n{\"email\":\"b@x.io\"}\n") == (.jsonl, ["a@x.io", "b@x.io"]))
    #expect(try read("email,display_name\r\na@x.io,\"Lovelace, Ada\"\r\n").0 == .csv)
    let firebaseCSV = "uid1,a@x.io,true,,,\"Lovelace, Ada\"," + String(repeating: ",", count: 21) + "\n"
    #expect(try read(firebaseCSV) == (.firebaseCSV, ["a@x.io"]))
    #expect(try read("") == (.jsonl, []))
  }
}
