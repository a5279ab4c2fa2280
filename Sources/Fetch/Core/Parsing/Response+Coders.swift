extension Response {
    private enum StackCoders: ResponseKey { static let defaultValue: Coders? = nil }

    /// The coders of the stack the response came through (``RequestPerforming/coding(with:)``), for
    /// ``decode(_:using:)``; `nil` when no coding layer was there.
    public var coders: Coders? {
        get { self[StackCoders.self] }
        set { self[StackCoders.self] = newValue }
    }
}
