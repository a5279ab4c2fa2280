extension Response {
    /// The coders of the stack.
    private enum StackCoders: ResponseKey { static let defaultValue: Coders? = nil }

    /// The coders of the stack the response came through (``RequestPerforming/coding(with:)``),
    /// which ``decode(_:using:)`` uses when neither the call, the request nor the model
    /// names a decoder; `nil` when no coding layer was there.
    public var coders: Coders? {
        get { self[StackCoders.self] }
        set { self[StackCoders.self] = newValue }
    }
}
