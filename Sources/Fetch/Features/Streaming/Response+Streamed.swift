extension Response {
    /// Whether the body went to a reader.
    private enum Streamed: ResponseKey { static let defaultValue = false }

    /// Whether the body went to a stream's reader as it arrived (``CallKind/stream(_:)``):
    /// the head of a stream and the response it ends with have an empty ``body`` although
    /// the server sent one. `false` otherwise.
    public var isStreamed: Bool {
        get { self[Streamed.self] }
        set { self[Streamed.self] = newValue }
    }
}
