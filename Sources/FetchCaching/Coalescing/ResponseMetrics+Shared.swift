import Fetch

extension ResponseMetrics {
    /// Whether coalescing shared the response.
    private enum Shared: MetricKey {
        static let defaultValue = false
        static func description(of value: Bool) -> String? { value ? "shared" : nil }
    }

    /// Whether a coalescing layer handed the same response to several identical calls.
    public var shared: Bool {
        get { self[Shared.self] }
        set { self[Shared.self] = newValue }
    }
}
