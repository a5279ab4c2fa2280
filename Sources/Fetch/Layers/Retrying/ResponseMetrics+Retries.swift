extension ResponseMetrics {
    private enum Retries: MetricKey {
        static let defaultValue = 0
        static func description(of value: Int) -> String? { "retries \(value)" }
    }

    /// How many times a retrying layer sent the call again before this response.
    public var retries: Int {
        get { self[Retries.self] }
        set { self[Retries.self] = newValue }
    }
}
