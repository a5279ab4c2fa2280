extension ResponseMetrics {
    private enum Refreshes: MetricKey {
        static let defaultValue = 0
        static func description(of value: Int) -> String? { "refreshes \(value)" }
    }

    /// How many times a refresh layer refreshed (a token) and resent the call.
    public var refreshes: Int {
        get { self[Refreshes.self] }
        set { self[Refreshes.self] = newValue }
    }
}
