import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// Responses FoundationNetworking on Linux fails the whole call on, from the fault server's
/// `/odd-header`: each ends in a named error that says what the server must change.
@Suite(.loopbackServers)
struct UnreadableResponseTests {
    /// A header the server sends, and what the error's reason must say of it.
    struct OddHeader: CustomTestStringConvertible, Sendable {
        let kind: String
        let says: String
        let testDescription: String
    }

    static let oddHeaders = [
        OddHeader(kind: "latin1", says: "not UTF-8", testDescription: "X-Note: caf\\xe9 (Latin-1)"),
        OddHeader(kind: "cookie", says: "not UTF-8", testDescription: "a Latin-1 Set-Cookie value"),
        OddHeader(kind: "nul", says: "NUL byte", testDescription: "a NUL byte in a header"),
        OddHeader(
            kind: "encoding", says: "Content-Encoding is one libcurl cannot decode",
            testDescription: "Content-Encoding: x-unknown"),
    ]

    #if canImport(FoundationNetworking)
    @Test(arguments: oddHeaders)
    func aHeaderLinuxCannotReadIsNamed(header: OddHeader) async throws {
        // Given a server whose response carries the header
        let servers = try LoopbackServers.require()
        let request = BasicRequest(url: servers.faults.url("/odd-header?kind=\(header.kind)"))
        // When a session asks for it
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: request) }
        // Then the call fails as a bad server response that names the cause and what the server must do
        #expect(error?.code == .badServerResponse)
        #expect(error?.reason.contains(header.says) == true, "\(String(describing: error))")
        #expect(error?.reason.contains("the server must") == true)
    }
    #endif

    @Test func aHeaderInUTF8IsRead() async throws {
        // Given a server whose response carries `X-Note: café` in UTF-8
        let servers = try LoopbackServers.require()
        let request = BasicRequest(url: servers.faults.url("/odd-header?kind=utf8"))
        // When a session asks for it
        let response = try await Session().response(for: request)
        // Then the header arrives as sent
        #expect(response.headers.first("X-Note") == "café")
        #expect(response.body == Data("body".utf8))
    }
}
