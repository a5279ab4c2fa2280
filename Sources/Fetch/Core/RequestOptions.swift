/// A key for a value stored in ``RequestOptions``: declare a type per setting; its `defaultValue`
/// is what a reader sees when the request did not set it.
public protocol RequestOptionKey {
    /// The type of the stored value.
    associatedtype Value: Sendable
    /// The value read when none was set.
    static var defaultValue: Value { get }
}

/// Per-request settings and markers, keyed by type: requests set them, performers and layers read
/// them (the deadline, whether to skip auth, how much to log).
public struct RequestOptions: Sendable {
    @usableFromInline var values: [ObjectIdentifier: any Sendable] = [:]

    /// Makes an empty set of options: every key reads its default.
    public init() {}

    /// The value for `key`, or its default when unset.
    @inlinable
    public subscript<Key: RequestOptionKey>(key: Key.Type) -> Key.Value {
        get {
            // Most requests carry no options: skip the hash and the dynamic cast.
            guard !values.isEmpty, let value = values[ObjectIdentifier(key)] else { return Key.defaultValue }
            return value as? Key.Value ?? Key.defaultValue
        }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether `key` was set explicitly.
    public func contains<Key: RequestOptionKey>(_ key: Key.Type) -> Bool {
        values[ObjectIdentifier(key)] != nil
    }

    /// A copy with `key` set to `value`.
    public func setting<Key: RequestOptionKey>(_ key: Key.Type, to value: Key.Value) -> RequestOptions {
        var copy = self
        copy[key] = value
        return copy
    }

    /// A copy with the value at `keyPath` replaced, for options declared as properties in extensions of this type.
    public func with<Value>(_ keyPath: WritableKeyPath<RequestOptions, Value>, _ value: Value) -> RequestOptions {
        var copy = self
        copy[keyPath: keyPath] = value
        return copy
    }

    /// Options of `other` set explicitly replace the ones here.
    public func merging(_ other: RequestOptions) -> RequestOptions {
        var copy = self
        copy.values.merge(other.values) { _, new in new }
        return copy
    }
}
