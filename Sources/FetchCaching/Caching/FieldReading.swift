import Fetch

/// What a cache reads in a header field or a directive that may be missing or malformed:
/// absent, a value, or present without a valid one (which a cache reads in the most
/// restrictive way).
enum FieldReading<Value: Equatable & Sendable>: Equatable, Sendable {
    /// Absent.
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
