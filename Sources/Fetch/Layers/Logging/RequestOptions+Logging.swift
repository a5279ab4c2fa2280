extension RequestOptions {
    private enum LogOptionsKey: RequestOptionKey { static let defaultValue: LogOptions? = nil }

    /// What the logging layer writes about this call in place of its configured options (`.all`
    /// to see everything, `.none` to keep it out of the log); `nil`, the default, keeps those.
    public var logOptions: LogOptions? {
        get { self[LogOptionsKey.self] }
        set { self[LogOptionsKey.self] = newValue }
    }
}
