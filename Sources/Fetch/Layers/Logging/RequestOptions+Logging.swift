extension RequestOptions {
    private enum LogOptionsKey: RequestOptionKey { static let defaultValue: LogOptions? = nil }

    /// What the logging layer writes about this call, in place of its configured options:
    /// `.all` to see everything for one call, `.none` to keep it out of the log; `nil`
    /// (the default) keeps the configuration's.
    public var logOptions: LogOptions? {
        get { self[LogOptionsKey.self] }
        set { self[LogOptionsKey.self] = newValue }
    }
}
