import Fetch

/// A header field or directive as a cache reads it: absent, a value, or present without a
/// valid one (read in the most restrictive way).
enum FieldReading<Value: Equatable & Sendable>: Equatable, Sendable {
    case absent
    /// Present with a valid value.
    case value(Value)
    /// Present without a valid value, or repeated with values that disagree.
    case invalid

    /// The value, when there is a valid one.
    var valid: Value? {
        if case .value(let value) = self { value } else { nil }
    }
}
