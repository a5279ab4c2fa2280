extension RequestOptions {
    /// A handler for one call, asked before the performer's chain.
    public typealias ErrorOverride = @Sendable (any Error, any Request) -> ErrorHandlingResult?

    private enum ErrorOverrideKey: RequestOptionKey { static let defaultValue: ErrorOverride? = nil }
    private enum PresentsErrorsKey: RequestOptionKey { static let defaultValue = true }
    private enum ShowsLoadingKey: RequestOptionKey { static let defaultValue = true }

    /// A handler for this call only, run before the chain of ``RequestPerforming/handlingErrors(_:presenter:)``: a
    /// result stops the chain, `nil` lets the chain run.
    ///
    /// ```swift
    /// let quiet = request.with(\.errorOverride) { error, _ in .replace(Silent(error)) }
    /// ```
    public var errorOverride: ErrorOverride? {
        get { self[ErrorOverrideKey.self] }
        set { self[ErrorOverrideKey.self] = newValue }
    }

    /// Whether a ``RequestPresenting`` shows this call's error; `true` by default.
    public var presentsErrors: Bool {
        get { self[PresentsErrorsKey.self] }
        set { self[PresentsErrorsKey.self] = newValue }
    }

    /// Whether a ``RequestPresenting`` hears this call's loading start and end; `true` by
    /// default. Turn it off for a call the user should not wait for (a prefetch). Its error is
    /// still shown unless ``presentsErrors`` is off too; ``ActivityReporting`` hears every call.
    public var showsLoading: Bool {
        get { self[ShowsLoadingKey.self] }
        set { self[ShowsLoadingKey.self] = newValue }
    }
}
