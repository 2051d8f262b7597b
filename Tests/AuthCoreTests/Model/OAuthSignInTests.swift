import AuthCore
import Testing

/// `login --oauth`: a provider as a person names it, as each backend names it; the answer read
/// from the address the browser came back to.
@Suite struct OAuthSignInTests {
  @Test func eachBackendNamesTheProviderItsOwnWay() {
    #expect(OAuthStart.backendName("google", for: .supabase) == "google")
    #expect(OAuthStart.backendName("Google.com", for: .supabase) == "google")
    #expect(OAuthStart.backendName("microsoft", for: .supabase) == "azure")
    #expect(OAuthStart.backendName("google", for: .firebase) == "google.com")
    #expect(OAuthStart.backendName("github.com", for: .firebase) == "github.com")
    #expect(OAuthStart.backendName("discord", for: .firebase) == nil)
    #expect(OAuthStart.backendName("yahoo", for: .supabase) == nil)
    #expect(OAuthStart.backendName("myspace", for: .supabase) == nil)
    // Every name --oauth offers works on at least one backend.
    for name in OAuthStart.providers {
      #expect(ProviderKind.allCases.contains { OAuthStart.backendName(name, for: $0) != nil }, "\(name)")
    }
  }

  @Test func theAnswerIsReadFromTheQueryOrTheFragment() {
    let back = "http://127.0.0.1:5555/callback?code=abc%2Fd&state=x#error_description=No+way&error=access_denied"
    #expect(OAuthStart.parameter("code", in: back) == "abc/d")
    #expect(OAuthStart.parameter("error_description", in: back) == "No way")
    #expect(OAuthStart.parameter("error", in: back) == "access_denied")
    #expect(OAuthStart.parameter("missing", in: back) == nil)
    #expect(OAuthStart.parameter("code", in: "http://127.0.0.1:5555/callback") == nil)
  }
}
