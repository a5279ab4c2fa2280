import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// A request's `Range` answered from a stored whole response (RFC 9110 section 14, RFC 9111
/// section 3.4), or left to the server.
@Suite struct CacheRangeTests {
    /// A fixture holding a whole response with the body `0123456789A`, fresh for a minute.
    static func stored() -> CacheFixture {
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "0123456789A"))
        _ = fixture.get()
        return fixture
    }

    @Test(arguments: [
        ("bytes=0-1", "01", "bytes 0-1/11"), ("bytes=1-", "123456789A", "bytes 1-10/11"),
        ("bytes=-1", "A", "bytes 10-10/11"), ("bytes=5-100", "56789A", "bytes 5-10/11"),
        ("bytes=-50", "0123456789A", "bytes 0-10/11"),
    ])
    func oneRangeOfAFreshWholeResponseIsServedFromItRFC9110Section14(
        _ range: String, _ body: String, _ contentRange: String
    ) {
        // Given a fresh whole response
        let fixture = Self.stored()

        // When a range of it is asked for
        let partial = fixture.get(resource(headers: ["Range": range]))

        // Then the cache answers 206 with those bytes, and nothing goes to the server
        #expect(partial?.status == 206 && partial?.text == body, "\(range)")
        #expect(partial?.headers["Content-Range"] == contentRange && partial?.metrics.cache == .hit)
        #expect(partial?.headers["Content-Length"] == String(body.utf8.count))
        #expect(fixture.spy.calls.count == 1)
    }

    @Test(arguments: ["bytes=0-1, 3-4", "bytes=11-", "items=0-1", "bytes=5-2", "bytes=-0", "bytes=a-b"])
    func anyOtherRangeGoesToTheServerAsWrittenAndIsNotStored(_ range: String) {
        // Given a fresh whole response
        let fixture = Self.stored()

        // When a range the cache does not answer is asked for
        fixture.next(fixture.answer(206, ["Cache-Control": "max-age=60", "Content-Range": "bytes 0-1/11"], body: "01"))
        let partial = fixture.get(resource(headers: ["Range": range]))

        // Then it went to the server as written, and the whole response is still what is stored
        #expect(fixture.sentHeader("Range", of: 1) == range && partial?.status == 206, "\(range)")
        #expect(fixture.get()?.text == "0123456789A")
    }

    @Test func aRangeOfAStaleResponseGoesToTheServerWithoutConditions() {
        // Given a whole response that went stale, with an entity tag
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=1", "ETag": "\"v1\""], body: "0123456789A"))
        _ = fixture.get()
        fixture.clock.advance(seconds: 5)

        // When a range of it is asked for
        fixture.next(fixture.answer(206, ["Content-Range": "bytes 0-1/11"], body: "01"))
        let partial = fixture.get(resource(headers: ["Range": "bytes=0-1"]))

        // Then the server answered it, asked without a condition of the cache's
        #expect(partial?.status == 206 && partial?.text == "01")
        #expect(fixture.sentHeader("If-None-Match", of: 1) == nil)
    }
}
