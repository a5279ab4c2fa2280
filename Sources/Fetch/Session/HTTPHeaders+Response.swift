import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPHeaders {
    /// The header fields of `response`, as URLSession reports them (a field that repeats
    /// arrives joined with ", ").
    init(_ response: HTTPURLResponse) {
        self.init()
        // URLSession keeps them as strings and hands them out boxed; a cast unboxes them for
        // about a third of what `String(describing:)` costs, which shows at one request in flight.
        for (name, value) in response.allHeaderFields {
            if let name = name.base as? String, let value = value as? String {
                add(name, value)
            } else {
                add(String(describing: name), String(describing: value))
            }
        }
    }
}
