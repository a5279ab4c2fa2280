extension Response {
    private enum FileURL: ResponseKey { static let defaultValue: URL? = nil }

    /// The file a download (``CallKind/download(_:)``) wrote the body to, the body then empty; `nil` otherwise.
    public var fileURL: URL? {
        get { self[FileURL.self] }
        set { self[FileURL.self] = newValue }
    }
}
