/// The body of a request and its content type. It is encoded when the request is built; a failure
/// reaches the caller as ``FetchError/Code-swift.enum/encoding``, never as an empty body.
public struct RequestBody: Sendable {
    enum Source: Sendable {
        case data(Data)
        /// Encoded when the request is built, with the call's coders.
        case encoded(@Sendable (Coders) throws -> Data)
        case file(URL)
        /// A multipart form with file parts, streamed when sent.
        case form(MultipartForm)
    }

    let source: Source
    /// The `Content-Type` sent with the body unless the request sets one itself.
    public var contentType: String?

    /// Raw bytes, sent with `contentType` (none when `nil`).
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(source: .data(data), contentType: contentType)
    }

    /// UTF-8 text, sent as `text/plain; charset=utf-8` unless another type is given.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(source: .data(Data(text.utf8)), contentType: contentType)
    }

    /// `value` as JSON, sent as `application/json`, encoded when the request is built by `encoder`
    /// or, when `nil`, the request's or the stack's (see ``Coders``), else a plain `JSONEncoder`.
    public static func json<Value: Encodable & Sendable>(
        _ value: Value,
        encoder: (@Sendable () -> JSONEncoder)? = nil
    ) -> RequestBody {
        RequestBody(
            source: .encoded { coders in
                try FetchError.attempt("encode \(Value.self) as JSON", as: .encoding) {
                    try ((encoder ?? coders.jsonEncoder)?() ?? JSONEncoder()).encode(value)
                }
            }, contentType: "application/json")
    }

    /// A body of your own format, made by `encode` each time the request is built, sent with
    /// `contentType` (none when `nil`). If `encode` throws, the call fails with
    /// ``FetchError/Code-swift.enum/encoding`` (a ``FetchError`` is kept as it is); nothing is sent.
    public static func encoded(
        contentType: String?, _ encode: @escaping @Sendable () throws -> Data
    ) -> RequestBody {
        RequestBody(
            source: .encoded { _ in try FetchError.attempt("encode the body", as: .encoding, encode) },
            contentType: contentType)
    }

    /// The bytes of the body, encoded with `coders` (the defaults when `nil`); a streamed body is read whole.
    /// - Throws: ``FetchError/Code-swift.enum/encoding`` when the body cannot be encoded,
    ///   ``FetchError/Code-swift.enum/file`` when its file cannot be read.
    public func encoded(with coders: Coders? = nil) throws -> Data {
        switch source {
        case .data(let data): return data
        case .encoded(let encode): return try encode(coders ?? Coders())
        case .file(let url):
            try FileBody.checkReadable(url)
            return try FetchError.attempt("read \(url.path)") { try Data(contentsOf: url) }
        case .form(let form): return try form.encoded()
        }
    }
}
