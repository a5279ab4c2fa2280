import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// `print(response)` and `print(error)` write one readable block, with secrets hidden.
@Suite struct PrintedValuesTests {
    private func response(body: String = #"{"id":7,"password":"p"}"#) -> Response {
        var sent = URLRequest(url: URL(string: "https://api.example.com/users/7?token=abc")!)
        sent.httpMethod = "POST"
        sent.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
        return Response(
            urlRequest: sent, status: 201,
            headers: ["Content-Type": "application/json", "Set-Cookie": "session=s3cret"], body: Data(body.utf8))
    }

    @Test func aResponsePrintsStatusURLHeadersAndBodyWithSecretsHidden() {
        // Given a response with a cookie, a token in its URL and a password in its body
        // When it is printed
        let printed = "\(response())"

        // Then it is one block with nothing secret in it
        #expect(
            printed == """
                HTTP 201 for POST https://api.example.com/users/7?token=<redacted>
                  Content-Type: application/json
                  Set-Cookie: <redacted>
                  body (23 bytes): {"id":7,"password":"<redacted>"}
                """)
    }

    @Test func itsDebugDescriptionAddsWhatWasSentAndTheMetrics() {
        // Given the same response with metrics
        var response = response()
        response.metrics.retries = 2

        // When it is debug-printed
        let printed = String(reflecting: response)

        // Then the sent headers come first, redacted, and the metrics last
        #expect(printed.contains("\n  > Authorization: <redacted>\n"))
        #expect(printed.contains("\n  metrics: "))
        #expect(!printed.contains("abc") && !printed.contains("s3cret"))
    }

    @Test func headersNamedLikeSecretsAreHiddenAsQueryItemsAndBodyFieldsAre() {
        // Given a response to a request that sent an API key, whose headers carry a token
        var sent = URLRequest(url: URL(string: "https://api.example.com/a")!)
        sent.setValue("k3y", forHTTPHeaderField: "X-Api-Key")
        let response = Response(
            urlRequest: sent, status: 200, headers: ["Token": "abc", "X-Auth-Token": "def", "X-Note": "kept"])

        // When it is printed, debug-printed and described as a cURL command
        let printed = "\(response)"
        let debugged = String(reflecting: response)
        let curl = sent.curlDescription()

        // Then no secret shows, and other fields do
        #expect(printed.contains("\n  Token: <redacted>\n") && printed.contains("X-Auth-Token: <redacted>"))
        #expect(debugged.contains("\n  > X-Api-Key: <redacted>\n") && curl.contains("-H 'X-Api-Key: <redacted>'"))
        #expect(printed.contains("X-Note: kept"))
        #expect(![printed, debugged, curl].contains { $0.contains("abc") || $0.contains("def") || $0.contains("k3y") })
        #expect(Redaction.none.value("abc", ofHeader: "Token") == "abc")
    }

    @Test func emptyBinaryMultiLineAndFileBodiesAreDescribed() {
        // Given bodies of each kind
        var file = Response(status: 200)
        file.fileURL = URL(fileURLWithPath: "/tmp/report.pdf")

        // Then each is described as what it is
        #expect(Response(status: 204).description.hasSuffix("\n  body: empty"))
        #expect(Response(status: 200, body: Data([0, 1, 2, 255])).description.hasSuffix("\n  body: 4 bytes, not text"))
        #expect(Response(status: 200, body: Data("a\nb".utf8)).description.hasSuffix("\n  body (3 bytes): a\n    b"))
        #expect(Response(status: 200, body: Data("x".utf8)).description.hasSuffix("\n  body (1 byte): x"))
        #expect(file.description.hasSuffix("\n  body: in /tmp/report.pdf"))
    }

    @Test func anErrorWithAResponsePrintsItsLineThenTheResponse() {
        // Given a status error for the response
        let error = FetchError.httpStatus(response())

        // When it is printed
        let printed = "\(error)"

        // Then its first line is the summary, followed by the response's block, indented
        let lines = printed.split(separator: "\n").map(String.init)
        #expect(lines.first == error.summary)
        #expect(lines.dropFirst().first == "  HTTP 201 for POST https://api.example.com/users/7?token=<redacted>")
        #expect(lines.contains("    Set-Cookie: <redacted>"))
        #expect(!printed.contains("s3cret") && !printed.contains("\"p\""))
        #expect(error.errorDescription == error.summary)
    }

    @Test func anErrorWithoutAResponseIsItsLine() {
        // Given an error without a response
        let error = FetchError(
            .timedOut, reason: "timed out", method: .get, url: URL(string: "https://api.example.com/a"))

        // Then it prints as its summary, and debug-prints with its code
        #expect(error.description == "GET https://api.example.com/a: timed out")
        #expect(String(reflecting: error) == "GET https://api.example.com/a: timed out\n  code: timedOut")
    }

    @Test func anErrorsDebugDescriptionNamesLayerUnderlyingAndResponse() {
        // Given a layer error carrying a response and an underlying error
        struct Expired: Error {}
        let error = FetchError(
            .layer, reason: "refresh failed", response: response(), underlying: Expired(), layer: "RefreshTokenHandler")

        // When it is debug-printed
        let printed = String(reflecting: error)

        // Then each part has its line
        #expect(printed.contains("\n  layer: RefreshTokenHandler\n"))
        #expect(printed.contains("\n  underlying: "))
        #expect(printed.contains("Expired"))
        #expect(printed.contains("\n  HTTP 201 for POST"))
    }
}
