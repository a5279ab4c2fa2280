import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

enum A {}
enum B {}
enum C {}
enum D {}

/// Appends its tag to `X-Order` on the way out and to the response's `X-Seen` on the way
/// back, so a test can read the order enhancers ran in. `Tag` makes distinct types for
/// before/after placement.
struct Mark<Tag>: Enhancer {
    let tag: String
    var priority: EnhancerPriority = .normal

    var name: String { tag }

    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        urlRequest.addValue(tag, forHTTPHeaderField: "X-Order")
    }

    func enhance(_ response: inout Response) throws {
        response.headers.add("X-Seen", tag)
    }
}

/// Fails every request it sees.
struct Failing: Enhancer {
    struct Boom: Error {}
    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws { throw Boom() }
}
