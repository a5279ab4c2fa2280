/// A response's header fields, made a list only when something needs them all; a lookup by name asks the
/// response. On Linux `allHeaderFields` copies and boxes every field on each call: more than the rest of a request.
final class ResponseFields: Sendable {
    private let response: HTTPURLResponse
    private let converted = Locked<[HTTPHeaders.Field]?>(nil)

    init(_ response: HTTPURLResponse) { self.response = response }

    /// Whether to ask the response for `name`: not once the list is made (the response lowercases every name on each
    /// lookup), nor for `X-` names, which URLSession keeps as sent, so `x-trace` and `X-Trace` can be two.
    func looksUp(_ name: String) -> Bool {
        var bytes = name.utf8.makeIterator()
        if bytes.next().map({ $0 | 0x20 }) == UInt8(ascii: "x"), bytes.next() == UInt8(ascii: "-") { return false }
        return converted.withLock { $0 == nil }
    }

    func value(for name: String) -> String? { response.value(forHTTPHeaderField: name) }

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
