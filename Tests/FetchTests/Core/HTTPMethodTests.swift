import Testing
import Fetch

struct HTTPMethodTests {
    @Test func namedMethodsAreTheNineOfRFC9110And5789() {
        // Given the named constants
        let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .connect, .options, .trace, .patch]
        // When read as wire forms
        let wire = methods.map(\.rawValue)
        // Then they are the nine standard methods, upper case
        #expect(wire == ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"])
    }

    @Test func otherMethodsComeFromLiteralsWithTheirCaseKept() {
        // Given an extension method and a lower-case one
        let propfind: HTTPMethod = "PROPFIND"
        let lower = HTTPMethod(rawValue: "get")
        // When compared with the constants
        // Then the literal keeps its text, and case matters (methods are case-sensitive)
        #expect(propfind.rawValue == "PROPFIND")
        #expect(propfind.description == "PROPFIND")
        #expect(lower != .get)
        #expect(HTTPMethod(rawValue: "GET") == .get)
    }

    @Test(arguments: [
        (HTTPMethod.get, true), (.head, true), (.options, true), (.put, true), (.delete, true), (.trace, true),
        (.post, false), (.patch, false), (.connect, false), ("PROPFIND", false),
    ])
    func idempotenceFollowsRFC9110(method: HTTPMethod, idempotent: Bool) {
        // Given a method
        // When asked whether it is idempotent
        // Then the answer is RFC 9110's
        #expect(method.isIdempotent == idempotent)
    }
}
