import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPHeaders {
    /// The header fields of `response`, as URLSession reports them (a field that repeats
    /// arrives joined with ", ").
    init(_ response: HTTPURLResponse) {
        self.init()
        for (name, value) in response.allHeaderFields {
            add(String(describing: name), String(describing: value))
        }
    }
}
