/// What a call carries besides its request: where the response body goes, and whether the request body reports its
/// progress. Set by the verb that starts the call and read by every layer from ``RequestOptions/kind``, each deciding
/// in one exhaustive `switch` (see "Kinds of call" in <doc:ComposingLayers>).
public enum CallKind: Sendable {
    /// The response body arrives whole, in ``Response/body``.
    case plain
    /// The response body is written to a file (the options' destination) as it arrives;
    /// ``Response/fileURL`` names the file and ``Response/body`` is empty.
    case download(TransferOptions)
    /// The request body is sent with progress reports; the response body arrives whole.
    case upload(TransferOptions)
    /// The response body goes to the sink as it arrives; the response's is empty (``Response/isStreamed``).
    case stream(StreamSink)

    /// The kind's name without what it carries, for records and log lines.
    public var name: Name {
        switch self {
        case .plain: .plain
        case .download: .download
        case .upload: .upload
        case .stream: .stream
        }
    }

    /// A ``CallKind`` without what it carries: comparable, hashable, printable.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        /// ``CallKind/plain``.
        case plain
        /// ``CallKind/download(_:)``.
        case download
        /// ``CallKind/upload(_:)``.
        case upload
        /// ``CallKind/stream(_:)``.
        case stream
    }
}

extension RequestOptions {
    private enum KindKey: RequestOptionKey { static let defaultValue = CallKind.plain }

    /// What the call carries: ``CallKind/plain`` unless `download`, `upload` or `stream` started it.
    public internal(set) var kind: CallKind {
        get { self[KindKey.self] }
        set { self[KindKey.self] = newValue }
    }
}
