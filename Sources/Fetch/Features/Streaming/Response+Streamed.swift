extension Response {
    private enum Streamed: ResponseKey { static let defaultValue = false }

    /// Whether the body went to a stream's reader (``CallKind/stream(_:)``), leaving ``body`` empty.
    public var isStreamed: Bool {
        get { self[Streamed.self] }
        set { self[Streamed.self] = newValue }
    }
}
