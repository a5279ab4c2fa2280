/// A response's header fields, made a list only when something needs them all; a lookup by name asks the
/// response. On Linux `allHeaderFields` copies and boxes every field on each call: more than the rest of a request.
final class ResponseFields: Sendable {
    private let response: HTTPURLResponse
    private let converted = Locked<[HTTPHeaders.Field]?>(nil)

    init(_ response: HTTPURLResponse) { self.response = response }

    /// Whether the response itself answers a lookup of `name` the way the list would: not
    /// for `X-` names, which URLSession keeps as sent, so `x-trace` and `X-Trace` can be two.
    func looksUp(_ name: String) -> Bool {
        let bytes = name.utf8
        guard bytes.count >= 2, let first = bytes.first else { return true }
        return !((first | 0x20) == UInt8(ascii: "x") && bytes.dropFirst().first == UInt8(ascii: "-"))
    }

    func value(for name: String) -> String? { response.value(forHTTPHeaderField: name) }

    /// The list, once something made it: a lookup then reads it rather than asking the response,
    /// which lowercases every field's name on every lookup.
    var madeFields: [HTTPHeaders.Field]? { converted.withLock { $0 } }

    var fields: [HTTPHeaders.Field] {
        converted.withLock { converted in
            if let converted { return converted }
            // URLSession hands them out boxed; a cast unboxes them for less than `String(describing:)`.
            let fields = response.allHeaderFields.map { name, value in
                HTTPHeaders.Field(
                    name: name.base as? String ?? String(describing: name),
                    value: value as? String ?? String(describing: value))
            }
            converted = fields
            return fields
        }
    }
}
