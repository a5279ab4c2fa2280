import Fetch

/// A header field or directive as a cache reads it: absent, a value, or invalid (read most restrictively).
enum FieldReading<Value: Equatable & Sendable>: Equatable, Sendable {
    case absent
    case value(Value)
    /// Present without a valid value, or repeated with values that disagree.
    case invalid
}
