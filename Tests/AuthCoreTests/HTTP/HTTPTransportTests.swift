import AuthCore
import Foundation
import Testing

/// The deadline every transport applies is the `--timeout` given: `500ms` is half a second, not
/// rounded up to one (README's own example value).
@Suite struct HTTPTransportTests {
  func request(timeout: Double) -> HTTPRequest {
    HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:9/")!, headers: [], body: nil, timeout: timeout)
  }

  @Test func aTimeoutUnderASecondIsKept() {
    #expect(request(timeout: 0.5).deadlineSeconds == 0.5)
    #expect(request(timeout: 0.2).deadlineSeconds == 0.2)
    #expect(request(timeout: 30).deadlineSeconds == 30)
  }

  @Test func valuesNoConversionCanTrapOnAreClamped() {
    #expect(request(timeout: 0).deadlineSeconds == 0.001)
    #expect(request(timeout: 1e12).deadlineSeconds == Target.maximumTimeout)
    #expect(request(timeout: .infinity).deadlineSeconds == 30)
    #expect(request(timeout: .nan).deadlineSeconds == 30)
  }
}
