import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// A response FoundationNetworking on Linux cannot read ends in URLError -1 with libcurl's
/// message; it becomes ``FetchError/Code-swift.enum/badServerResponse`` with a reason that
/// names the cause and what to do, keeping libcurl's words.
struct UnreadableResponseMappingTests {
    @Test(arguments: [
        ("Failed writing header", "not UTF-8"),
        ("Nul byte in header", "NUL byte in a header"),
        (
            "Unrecognized content encoding type. libcurl understands deflate, gzip, br, zstd content encodings.",
            "Content-Encoding is one libcurl cannot decode"
        ),
    ])
    func libcurlsMessageNamesTheCauseAndTheWayOut(message: String, says: String) {
        // Given URLError -1 with the message FoundationNetworking 6.3.1 gives for the response
        let error = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .get, url: URL(string: "http://127.0.0.1:8080/")!)
        // Then it is a bad server response that says why, what the server must do, and libcurl's words
        #expect(mapped.code == .badServerResponse)
        #expect(mapped.reason.contains(says))
        #expect(mapped.reason.contains("the server must"))
        #expect(mapped.reason.contains(message))
    }
}
