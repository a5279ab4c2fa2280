import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Sets the header `name` to `value` after checking both with ``HeaderRules``: on Linux
    /// `setValue` silently drops a value holding CR or LF, so it must be refused first.
    /// - Parameter replacing: whether to replace a value the request already has.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a name or value that cannot be sent.
    mutating func setHeader(_ name: String, _ value: String, replacing: Bool) throws {
        if !replacing && self.value(forHTTPHeaderField: name) != nil { return }
        try HeaderRules.validate(name: name, value: value)
        setValue(value, forHTTPHeaderField: name)
    }
}
