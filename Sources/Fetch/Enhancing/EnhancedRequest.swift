import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The caller's request with enhancers applied when it becomes a `URLRequest`: the
/// caller's own `adjust(_:)` runs first, then each enhancer in order. Everything else
/// reads through to the caller's request, so the performer below still builds and
/// validates the final `URLRequest` itself.
struct EnhancedRequest: Request {
    let base: any Request
    let enhancers: [any Enhancer]
    /// The caller's options without ``RequestOptions/enhancers``, once this layer has used
    /// them (so a second enhancing layer below does not apply them again); `nil` when
    /// there were none, to read the caller's options as they are.
    private let consumedOptions: RequestOptions?

    init(base: any Request, enhancers: [any Enhancer], consumedOptions: RequestOptions? = nil) {
        self.base = base
        self.enhancers = enhancers
        self.consumedOptions = consumedOptions
    }

    var url: URL { base.url }
    var method: HTTPMethod { base.method }
    var headers: HTTPHeaders { base.headers }
    var queryItems: [URLQueryItem] { base.queryItems }
    var body: RequestBody? { base.body }
    var options: RequestOptions { consumedOptions ?? base.options }

    func adjust(_ urlRequest: inout URLRequest) throws {
        try base.adjust(&urlRequest)
        for enhancer in enhancers {
            do {
                try enhancer.enhance(&urlRequest, for: base)
            } catch {
                throw FetchError.wrapping(error, layer: enhancer.name, request: base)
            }
        }
    }
}
