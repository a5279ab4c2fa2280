extension RequestOptions {
    private enum SkipsAuthenticationKey: RequestOptionKey { static let defaultValue = false }
    private enum BaseURLKey: RequestOptionKey { static let defaultValue: URL? = nil }
    private enum SkipsBaseURLKey: RequestOptionKey { static let defaultValue = false }
    private enum EnhancersKey: RequestOptionKey { static let defaultValue: [any Enhancer] = [] }

    /// Whether authentication enhancers (``BearerToken``, ``BasicAuth``) leave this
    /// request alone, for calls such as logging in; `false` by default.
    public var skipsAuthentication: Bool {
        get { self[SkipsAuthenticationKey.self] }
        set { self[SkipsAuthenticationKey.self] = newValue }
    }

    /// A base URL for this request in place of the ``BaseURL`` enhancer's; `nil` keeps it.
    public var baseURL: URL? {
        get { self[BaseURLKey.self] }
        set { self[BaseURLKey.self] = newValue }
    }

    /// Whether the ``BaseURL`` enhancer leaves this request's URL as it is; `false` by default.
    public var skipsBaseURL: Bool {
        get { self[SkipsBaseURLKey.self] }
        set { self[SkipsBaseURLKey.self] = newValue }
    }

    /// Enhancers for this request only, ordered by priority together with the performer's.
    public var enhancers: [any Enhancer] {
        get { self[EnhancersKey.self] }
        set { self[EnhancersKey.self] = newValue }
    }
}
