extension Response {
    private enum Streamed: ResponseKey { static let defaultValue = false }

    /// Whether the body went to a stream's reader as it arrived (``CallKind/stream(_:)``),
    /// so that ``body`` is empty although the server sent one.
    public var isStreamed: Bool {
        get { self[Streamed.self] }
        set { self[Streamed.self] = newValue }
    }
}
