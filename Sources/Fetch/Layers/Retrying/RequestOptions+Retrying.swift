extension RequestOptions {
    private enum RetryableKey: RequestOptionKey { static let defaultValue: Bool? = nil }

    /// Whether the built-in retry policies may retry this request: `nil` (the default) follows
    /// the method (idempotent only), `true` opts a request such as a POST in, `false` opts out.
    public var isRetryable: Bool? {
        get { self[RetryableKey.self] }
        set { self[RetryableKey.self] = newValue }
    }
}
