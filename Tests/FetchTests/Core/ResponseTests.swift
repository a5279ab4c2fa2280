import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

struct ResponseTests {
    @Test func aHandMadeResponseFillsInItsRequest() {
        // Given a response made from a status alone, and one made for a URL
        let bare = Response(status: 204)
        let forURL = Response(status: 200, url: exampleURL("/final"))
        // When its request parts are read
        // Then they default to a GET of that URL (or localhost)
        #expect(bare.request.url.absoluteString == "http://localhost/")
        #expect(bare.urlRequest.url == bare.request.url)
        #expect(bare.url == bare.request.url)
        #expect(bare.body.isEmpty)
        #expect(forURL.request.url == exampleURL("/final"))
        #expect(forURL.url == exampleURL("/final"))
    }

    @Test func aHandMadeResponseToAPostIsAboutAPost() {
        // Given a response made for a POST request, without the URLRequest that was sent
        let response = Response(request: BasicRequest(url: exampleURL("/orders"), method: .post), status: 500)
        // When an error is made about it
        let error = FetchError.httpStatus(response)
        // Then the URLRequest and the error name the request's method, not GET
        #expect(response.urlRequest.httpMethod == "POST")
        #expect(error.method == .post)
        #expect(error.summary.hasPrefix("POST "))
    }

    @Test func theSentURLRequestIsKept() {
        // Given a response for a URLRequest that differs from the described request
        var sent = URLRequest(url: exampleURL("/sent"))
        sent.httpMethod = "PUT"
        let response = Response(request: BasicRequest(url: exampleURL("/asked")), urlRequest: sent, status: 200)
        // When read
        // Then the URLRequest is the one sent and the final URL defaults to it
        #expect(response.urlRequest.httpMethod == "PUT")
        #expect(response.url == exampleURL("/sent"))
        #expect(response.request.url == exampleURL("/asked"))
    }

    @Test(arguments: [(199, false), (200, true), (204, true), (299, true), (300, false), (404, false), (500, false)])
    func successIsAny2xx(status: Int, success: Bool) {
        // Given a response with a status
        // When asked whether it succeeded
        // Then only 2xx counts
        #expect(Response(status: status).isSuccess == success)
    }

    @Test func mediaTypeAndCharsetComeFromContentType() {
        // Given a Content-Type with parameters, in odd casing and with quotes
        let response = Response(status: 200, headers: ["content-type": "Text/HTML; Level=1; Charset=\"ISO-8859-1\""])
        // When the media type and charset are read
        // Then both are lowercased and bare
        #expect(response.mediaType == "text/html")
        #expect(response.charset == "iso-8859-1")
    }

    @Test func noContentTypeMeansNoMediaTypeOrCharset() {
        // Given a response without Content-Type, and one without a charset
        let none = Response(status: 200)
        let plain = Response(status: 200, headers: ["Content-Type": "application/json"])
        // When read
        // Then they are nil where absent
        #expect(none.mediaType == nil)
        #expect(none.charset == nil)
        #expect(plain.mediaType == "application/json")
        #expect(plain.charset == nil)
    }

    @Test func bodyPreviewIsCutAtTheLimit() {
        // Given a body longer than the limit, and an empty one
        let long = Response(status: 200, body: Data("0123456789".utf8))
        let empty = Response(status: 200)
        // When previewed
        // Then the long one is cut with an ellipsis and the empty one is empty
        #expect(long.bodyPreview(limit: 4) == "0123…")
        #expect(long.bodyPreview(limit: 10) == "0123456789")
        #expect(empty.bodyPreview() == "")
    }
}
