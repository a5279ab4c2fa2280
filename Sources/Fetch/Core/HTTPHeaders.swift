/// An ordered list of HTTP header fields: repeats kept (`Set-Cookie`), names compared without case (RFC 9110).
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field: a name and a value, as given.
    public struct Field: Sendable, Hashable {
        /// The field name, with its original casing.
        public var name: String
        /// The field value.
        public var value: String

        /// Makes a field from a name and a value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var own: [Field] = []
    /// The response whose fields these are, converted only when needed: most callers look up one field or none.
    private var response: ResponseFields?

    private var fields: [Field] { response?.fields ?? own }

    /// Makes an empty list of headers.
    public init() {}

    /// Makes headers from name-value pairs, in order; repeated names are kept.
    public init(_ pairs: [(String, String)]) {
        own = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    init(_ response: HTTPURLResponse) { self.response = ResponseFields(response) }

    private mutating func takeOwnership() {
        guard let response else { return }
        own = response.fields
        self.response = nil
    }

    /// Makes headers from a dictionary literal, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, repeats included.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The values of every field called `name`, in order, whatever their casing.
    public func values(for name: String) -> [String] {
        if let response, response.looksUp(name) { return response.value(for: name).map { [$0] } ?? [] }
        return fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// The first value of the field `name`, whatever its casing.
    public func first(_ name: String) -> String? {
        if let response, response.looksUp(name) { return response.value(for: name) }
        return fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Whether a field called `name` is present, whatever its casing.
    public func contains(_ name: String) -> Bool { first(name) != nil }

    /// The values of `name` joined with `", "`, or `nil`. Setting replaces every field `name`; `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            let values = values(for: name)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        set {
            if let newValue { set(name, newValue) } else { remove(name) }
        }
    }

    /// Adds a field, keeping any other field of the same name.
    public mutating func add(_ name: String, _ value: String) {
        takeOwnership()
        own.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` with one field holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        takeOwnership()
        // The first field keeps its place and its spelling.
        let index = own.firstIndex { $0.name.caseInsensitiveEquals(name) }
        let field = Field(name: index.map { own[$0].name } ?? name, value: value)
        own.removeAll { $0.name.caseInsensitiveEquals(name) }
        own.insert(field, at: index ?? own.count)
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        takeOwnership()
        own.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Adds every field of `other` that this list does not name yet.
    public func merging(defaults other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        for field in other where !contains(field.name) { merged.add(field.name, field.value) }
        return merged
    }

    /// The fields as `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Whether both hold the same fields in the same order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields == rhs.fields
    }

    /// Hashes the fields in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }
}

extension [String: String] {
    /// The field `name`, compared without case, as `value(forHTTPHeaderField:)` finds it.
    func field(named name: String) -> (key: String, value: String)? {
        first { $0.key.caseInsensitiveEquals(name) }
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let mine = utf8
        let theirs = other.utf8
        guard mine.count == theirs.count else { return false }
        // Byte by byte, ASCII letters folded (header names are ASCII); other differing bytes fall back to lowercasing.
        for (byte, otherByte) in zip(mine, theirs) where byte != otherByte {
            guard byte < 0x80, otherByte < 0x80 else { return lowercased() == other.lowercased() }
            let folded = byte | 0x20
            guard folded == otherByte | 0x20, folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }
}

extension HTTPHeaders {
    /// One value per name, compared without case: repeats joined with `", "` under the first spelling, as `addValue`.
    func joinedByName() -> [String: String] {
        var joined: [String: String] = [:]
        joined.reserveCapacity(count)
        for field in self {
            let name = joined.field(named: field.name)?.key ?? field.name
            joined[name] = joined[name].map { $0 + ", " + field.value } ?? field.value
        }
        return joined
    }
}
