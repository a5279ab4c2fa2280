import Testing
import Fetch
import FetchTesting

@Suite struct VerifierTests {
    @Test func statusVerifierAcceptsListedStatuses() {
        // Given a verifier accepting 200 and 204
        let verifier = StatusVerifier([200, 204])

        // When 204 and 201 come back
        let ok = performNow(SpyPerformer([.status(204)]).enhanced(by: verifier), get("http://x"))
        let refused = fetchError(performNow(SpyPerformer([.status(201)]).enhanced(by: verifier), get("http://x")))

        // Then 204 passes and 201 fails with the response attached
        #expect(outcome(ok) == "204")
        #expect(refused?.code == .httpStatus)
        #expect(refused?.response?.status == 201)
        #expect(refused?.layer == "StatusVerifier(200, 204)")
    }

    @Test func contentTypeVerifierChecksTheMediaTypeOfBodies() {
        // Given a JSON-only verifier
        let verifier = ContentTypeVerifier.json

        // When JSON with a charset, HTML, and an empty 204 come back
        let json = performNow(
            SpyPerformer([.response(.text("{}", contentType: "Application/JSON; charset=utf-8"))]).enhanced(
                by: verifier),
            get("http://x")
        )
        let html = fetchError(
            performNow(
                SpyPerformer([.response(.text("<p>", contentType: "text/html"))]).enhanced(by: verifier),
                get("http://x")
            ))
        let empty = performNow(SpyPerformer([.status(204)]).enhanced(by: verifier), get("http://x"))

        // Then JSON and the empty body pass, HTML fails saying what arrived
        #expect(outcome(json) == "200")
        #expect(outcome(empty) == "204")
        #expect(html?.code == .badServerResponse)
        #expect(html?.reason == "expected a application/json body, got text/html")
        #expect(html?.layer == "ContentTypeVerifier")
    }
}
