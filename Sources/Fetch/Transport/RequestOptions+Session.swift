extension RequestOptions {
    private enum DeadlineKey: RequestOptionKey { static let defaultValue: Duration? = nil }
    private enum IdleTimeoutKey: RequestOptionKey { static let defaultValue: Duration? = nil }
    private enum MaximumBodySizeKey: RequestOptionKey { static let defaultValue: Int? = nil }
    private enum RedirectPolicyKey: RequestOptionKey { static let defaultValue: RedirectPolicy? = nil }
    private enum SensitiveHeadersKey: RequestOptionKey { static let defaultValue: Set<String> = [] }

    /// This request's overall deadline, replacing the session's; `nil` keeps the session's.
    public var deadline: Duration? {
        get { self[DeadlineKey.self] }
        set { self[DeadlineKey.self] = newValue }
    }

    /// This request's idle timeout, replacing the session's; `nil` keeps the session's.
    public var idleTimeout: Duration? {
        get { self[IdleTimeoutKey.self] }
        set { self[IdleTimeoutKey.self] = newValue }
    }

    /// This request's in-memory body limit in bytes, replacing the session's; `nil` keeps the session's.
    public var maximumBodySize: Int? {
        get { self[MaximumBodySizeKey.self] }
        set { self[MaximumBodySizeKey.self] = newValue }
    }

    /// This request's redirect policy, replacing the session's; `nil` keeps the session's.
    public var redirectPolicy: RedirectPolicy? {
        get { self[RedirectPolicyKey.self] }
        set { self[RedirectPolicyKey.self] = newValue }
    }

    /// More header names to drop when a redirect leaves the origin, added to the session's;
    /// a caching layer also counts them as credentials (see `CachingLayer`).
    public var sensitiveHeaders: Set<String> {
        get { self[SensitiveHeadersKey.self] }
        set { self[SensitiveHeadersKey.self] = newValue }
    }
}
