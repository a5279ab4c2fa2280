import Foundation
import Testing
import Fetch

struct FetchErrorTests {
    @Test func descriptionIsOneLineNamingMethodAndURL() {
        // Given an error about a request
        let error = FetchError(
            .timedOut, reason: "timed out waiting for the server",
            method: .post, url: exampleURL("/accounts"))
        // When described
        // Then one line names the method, the URL and the reason
        #expect(error.description == "POST https://api.example.com/accounts: timed out waiting for the server")
        #expect(error.errorDescription == error.description)
        #expect(error.localizedDescription == error.description)
    }

    @Test func descriptionStaysOneLineWhenTheReasonHasLineBreaks() {
        // Given a 500 whose body spans several lines
        let response = Response(
            request: BasicRequest(url: exampleURL("/boom")), status: 500,
            body: Data("Traceback:\r\n  line 1\n  line 2".utf8))
        // When the status error is described
        let line = FetchError.httpStatus(response).summary
        // Then its summary is still one line and names the request
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(line.hasPrefix("GET https://api.example.com/boom: HTTP 500; body began: Traceback:"))
    }

    @Test func descriptionWithoutARequestIsTheReason() {
        // Given an error that names no request
        let error = FetchError(.encoding, reason: "could not encode")
        // When described
        // Then it is the reason alone, also when the method it names is empty
        #expect(error.description == "could not encode")
        let emptyMethod = FetchError(.encoding, reason: "could not encode", method: HTTPMethod(rawValue: ""))
        #expect(emptyMethod.description == "could not encode")
        #expect(error.status == nil)
    }

    @Test func aLayerIsNamedInTheDescription() {
        // Given a timeout that a layer passed on
        let error = FetchError(.timedOut, reason: "timed out", method: .get, url: exampleURL("/"), layer: "Retry")
        // When described
        // Then the layer is named after the reason
        #expect(error.description == "GET https://api.example.com/: timed out (in Retry)")
    }

    @Test func namingFillsOnlyWhatIsMissing() {
        // Given an error naming a URL but no method
        let error = FetchError(.cancelled, reason: "cancelled", url: exampleURL("/original"))
        // When it is named after another request
        let named = error.naming(method: .delete, url: exampleURL("/other"))
        // Then the method is filled in and the URL kept
        #expect(named.method == .delete)
        #expect(named.url == exampleURL("/original"))
    }

    @Test func cancelledNamesTheRequest() {
        // Given a request
        let request = BasicRequest(url: exampleURL("/slow"), method: .put)
        // When a cancellation error is made for it
        let error = FetchError.cancelled(request)
        // Then it has the cancelled code and names the request
        #expect(error.code == .cancelled)
        #expect(error.description == "PUT https://api.example.com/slow: cancelled")
    }

    @Test func httpStatusCarriesTheResponseAndTheStartOfTheBody() {
        // Given a 404 with a body
        let response = Response(
            request: BasicRequest(url: exampleURL("/accounts/9")), status: 404,
            body: Data(#"{"message":"no such user"}"#.utf8))
        // When a status error is made
        let error = FetchError.httpStatus(response)
        // Then it carries the response, its status and the body's first bytes
        #expect(error.code == .httpStatus)
        #expect(error.status == 404)
        #expect(error.response?.body == response.body)
        #expect(
            error.summary
                == #"GET https://api.example.com/accounts/9: HTTP 404; body began: {"message":"no such user"}"#)
    }

    @Test func wrappingAFetchErrorKeepsItsCodeAndAddsTheLayer() throws {
        // Given a FetchError thrown inside a layer
        let inner = FetchError(.timedOut, reason: "timed out")
        // When the layer wraps it
        let wrapped = try #require(
            FetchError.wrapping(inner, layer: "Auth", request: BasicRequest(url: exampleURL("/me"))) as? FetchError
        )
        // Then the code stays, the layer and request are named
        #expect(wrapped.code == .timedOut)
        #expect(wrapped.layer == "Auth")
        #expect(wrapped.url == exampleURL("/me"))
        #expect(wrapped.method == .get)
    }

    @Test func wrappingAnotherErrorMakesALayerError() throws {
        // Given an error of the caller's own thrown inside a layer
        struct TokenStoreLocked: Error {}
        // When the layer wraps it
        let wrapped = try #require(FetchError.wrapping(TokenStoreLocked(), layer: "Auth") as? FetchError)
        // Then it is a layer error naming the layer, with the original attached
        #expect(wrapped.code == .layer)
        #expect(wrapped.layer == "Auth")
        #expect(wrapped.underlying is TokenStoreLocked)
        #expect(wrapped.description == "Auth failed: TokenStoreLocked()")
    }

    @Test func everyCodeHasADistinctName() {
        // Given every code
        let names = FetchError.Code.allCases.map(\.rawValue)
        // When their names are compared
        // Then they are unique and include the ones callers match on
        #expect(Set(names).count == names.count)
        for expected in [
            "invalidRequest", "notConnected", "cannotConnect", "hostNotFound", "timedOut", "cancelled",
            "tls", "connectionLost", "badServerResponse", "httpStatus", "decoding", "encoding",
        ] {
            #expect(names.contains(expected))
        }
    }
}
