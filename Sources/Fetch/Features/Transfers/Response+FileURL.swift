extension Response {
    private enum FileURL: ResponseKey { static let defaultValue: URL? = nil }

    /// The file the performer wrote the body to, for a download (``CallKind/download(_:)``);
    /// the body is then empty. `nil` otherwise.
    public var fileURL: URL? {
        get { self[FileURL.self] }
        set { self[FileURL.self] = newValue }
    }
}
