import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What makes two calls identical for a ``CoalescingPerformer``: the method, the URL with
/// its query, and every header field as it would be sent, except the ones it ignores.
struct CoalescingKey: Hashable, Sendable {
    let method: String
    let url: String
    /// Header fields with lowercased names, sorted, so that order and casing do not matter.
    let headers: [String]

    /// The key of `request`, or `nil` when it is never coalesced: a call of another kind
    /// than plain, a method other than GET or HEAD, a body, or a request that does not
    /// build (the performer below reports why).
    init?(_ request: any Request, ignoring ignored: Set<String>) {
        switch request.options.kind {
        case .plain: break
        case .download, .upload, .stream:
            // Each caller's body goes to its own file or reader: there is nothing to share.
            return nil
        }
        let method = request.method
        guard method == .get || method == .head, request.body == nil,
            let urlRequest = try? request.checkedURLRequest(), let url = urlRequest.url
        else { return nil }
        self.method = method.rawValue
        self.url = url.absoluteString
        headers = (urlRequest.allHTTPHeaderFields ?? [:])
            .map { (name: $0.key.lowercased(), value: $0.value) }
            .filter { !ignored.contains($0.name) }
            .map { "\($0.name):\($0.value)" }
            .sorted()
    }
}
