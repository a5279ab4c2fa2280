import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request on its way down a stack of layers: the caller's request as the layers above
/// changed it, held flat.
///
/// A layer that changes a request (an enhancing layer adds enhancers, a hook sends another
/// request, a transfer sets its options) makes or copies one of these; it never wraps a
/// wrapper, so a request passes any number of layers as one value with stored fields.
/// It remembers the caller's request, and every ``Response`` is made with that one in
/// ``Response/request``: nothing has to put it back on the way up.
struct LayeredRequest: Request {
    /// The request the caller passed to the top of the stack.
    private(set) var caller: any Request
    /// The request whose fields were copied and whose `adjust(_:)` runs first: the
    /// caller's, or the one a hook sent in its place.
    private let source: any Request
    var url: URL
    var method: HTTPMethod
    var headers: HTTPHeaders
    var queryItems: [URLQueryItem]
    var body: RequestBody?
    var options: RequestOptions
    /// Enhancers run after the source's `adjust(_:)`, in order.
    var enhancers: [any Enhancer] = []

    /// `request` as a layer passes it on: a copy when it is one already, otherwise its
    /// fields, with `request` as the caller's request.
    init(_ request: any Request) {
        if let layered = request as? LayeredRequest {
            self = layered
        } else {
            self.init(sending: request, for: request)
        }
    }

    /// `request` sent in place of `caller`'s request (by a hook), keeping the caller's.
    init(sending request: any Request, for caller: any Request) {
        if let layered = request as? LayeredRequest {
            self = layered
            self.caller = caller.callersRequest
            return
        }
        self.caller = caller.callersRequest
        source = request
        url = request.url
        method = request.method
        headers = request.headers
        queryItems = request.queryItems
        body = request.body
        options = request.options
    }

    /// Runs the source's `adjust(_:)`, then each enhancer; an enhancer that throws fails
    /// with an error naming it.
    func adjust(_ urlRequest: inout URLRequest) throws {
        try source.adjust(&urlRequest)
        guard !enhancers.isEmpty else { return }
        let request: any Request = self  // boxed once, not once per enhancer
        for enhancer in enhancers {
            do {
                try enhancer.enhance(&urlRequest, for: request)
            } catch {
                throw FetchError.wrapping(error, layer: enhancer.name, request: caller)
            }
        }
    }
}

extension Request {
    /// The request the caller passed to the top of a stack of layers: this one, unless a
    /// layer is passing it down (see ``Response/request``).
    package var callersRequest: any Request {
        (self as? LayeredRequest)?.caller ?? self
    }
}
