import Foundation
import Testing
import Fetch
import FetchTesting

struct ErrorParsingTests {
    @Test func anErrorBodyBecomesTheCallersError() {
        // Given a 422 whose body is the API's error
        let response = jsonResponse(#"{"message":"name is taken"}"#, status: 422)
        // When parsed with an error parser
        // Then the API's error is thrown
        #expect(throws: APIError(message: "name is taken")) {
            try response.parse(as: Account.self, errorParser: APIError.self)
        }
    }

    @Test func anUnknownErrorBodyKeepsTheStatusError() {
        // Given a 502 whose body the error parser does not understand
        let response = Response(status: 502, body: Data("<html>Bad Gateway</html>".utf8))
        // When parsed with the error parser
        // Then the ordinary httpStatus error comes through
        let error = #expect(throws: FetchError.self) {
            try response.parse(as: Account.self, errorParser: APIError.self)
        }
        #expect(error?.code == .httpStatus)
    }

    @Test func theErrorParserIsNotAskedAboutSuccess() throws {
        // Given a 200 whose body would also parse as the API's error
        let response = jsonResponse(#"{"id":1,"name":"Ada","message":"hello"}"#)
        // When parsed with the error parser
        // Then the model is returned
        #expect(try response.parse(as: Account.self, errorParser: APIError.self) == Account(id: 1, name: "Ada"))
    }

    @Test func perCallErrorParserOverTheCallbackAPI() throws {
        // Given a spy answering 404 with an API error
        let spy = SpyPerformer([try .json(["message": "no such user"], status: 404)])
        let result = Captured<Result<Account, any Error>>()
        // When called with an error parser
        spy.perform(GetAccount(id: 9) as any Request, as: Account.self, errorParser: APIError.self) {
            result.record($0)
        }
        // Then the API's error arrived, before perform returned
        #expect(throws: APIError(message: "no such user")) { try result.only?.get() }
        #expect(result.count == 1)
    }

    @Test func perCallErrorParserOverAsync() async throws {
        // Given a spy answering 400 with an API error
        let spy = SpyPerformer([try .json(["message": "bad id"], status: 400)])
        // When called with an error parser
        // Then the API's error is thrown
        await #expect(throws: APIError(message: "bad id")) {
            try await spy.perform(GetAccount(id: 0) as any Request, as: Account.self, errorParser: APIError.self)
        }
    }

    @Test func aTypedRequestBringsItsOwnErrorParser() async throws {
        // Given a typed request naming an error parser and a spy answering 403 twice
        let spy = SpyPerformer([
            try .json(["message": "forbidden"], status: 403), try .json(["message": "forbidden"], status: 403),
        ])
        let result = Captured<Result<Account, any Error>>()
        // When it is performed with a callback and with async
        spy.perform(GetAccountWithAPIErrors()) { result.record($0) }
        // Then both get the API's error
        #expect(throws: APIError(message: "forbidden")) { try result.only?.get() }
        await #expect(throws: APIError(message: "forbidden")) { try await spy.perform(GetAccountWithAPIErrors()) }
    }

    @Test func aTypedRequestWithoutAnErrorParserKeepsTheStatusError() async throws {
        // Given a typed request with no error parser
        let spy = SpyPerformer([try .json(["message": "forbidden"], status: 403)])
        // When the server answers 403
        // Then the httpStatus error comes through
        let error = await #expect(throws: FetchError.self) { try await spy.perform(GetAccount(id: 1)) }
        #expect(error?.code == .httpStatus)
        #expect(GetAccount(id: 1).errorParser == nil)
    }
}
