/// What a call carries besides its request: where the response body goes, and whether the
/// request body reports its progress.
///
/// Every call is one of four kinds, set by the verb that starts it and read by every layer
/// from ``RequestOptions/kind``: `perform` (and everything built on it) makes a plain call,
/// ``RequestPerforming/download(_:to:progress:completion:)`` a download,
/// ``RequestPerforming/upload(_:progress:completion:)`` an upload and
/// ``RequestPerforming/stream(_:acceptingAnyStatus:bufferSize:spillLimit:onResponse:onChunk:completion:)``
/// a stream. A layer that treats kinds differently decides with one exhaustive `switch`,
/// so a new kind does not compile until every layer says what it does with it:
///
/// ```swift
/// switch request.options.kind {
/// case .plain, .upload: ...           // the response body arrives whole, in memory
/// case .download(let transfer): ...   // the body goes to transfer.destination
/// case .stream(let sink): ...         // the body goes to the sink as it arrives
/// }
/// ```
public enum CallKind: Sendable {
    /// The response body arrives whole, in ``Response/body``.
    case plain
    /// The response body is written to a file (the options' destination) as it arrives;
    /// ``Response/fileURL`` names the file and ``Response/body`` is empty.
    case download(TransferOptions)
    /// The request body (bytes, a file or a form with file parts) is sent with progress
    /// reports; the response body arrives whole, as for a plain call.
    case upload(TransferOptions)
    /// The response body goes to the sink piece by piece as it arrives; the call's response
    /// has an empty body (``Response/isStreamed``).
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

    /// What the call carries: ``CallKind/plain`` unless `download`, `upload` or `stream`
    /// started it.
    public internal(set) var kind: CallKind {
        get { self[KindKey.self] }
        set { self[KindKey.self] = newValue }
    }
}
