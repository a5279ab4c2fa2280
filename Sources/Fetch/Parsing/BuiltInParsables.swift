extension Data: Parsable {
    /// The body as it came, for any 2xx status.
    public static func parse(from response: Response) throws -> Data {
        try response.requireSuccess()
        return response.body
    }
}

extension String: Parsable {
    /// The body as text in the charset of `Content-Type` (UTF-8 when none is given), for
    /// any 2xx status.
    /// - Throws: ``FetchError/Code-swift.enum/decoding`` when the bytes are not valid in
    ///   that charset or the charset is unknown.
    public static func parse(from response: Response) throws -> String {
        try response.requireSuccess()
        let name = response.charset ?? "utf-8"
        guard let encoding = String.Encoding(charsetName: name) else {
            throw response.decodingError("unknown charset \"\(name)\"", underlying: nil)
        }
        guard let text = String(data: response.body, encoding: encoding) else {
            throw response.decodingError("the body is not valid \(name) text", underlying: nil)
        }
        return text
    }
}

extension Response: Parsable {
    /// The response itself, whatever its status: for callers that read status and headers.
    public static func parse(from response: Response) throws -> Response { response }
}

/// The model for responses whose body does not matter, such as `204 No Content`.
public struct Empty: Parsable, Equatable, Hashable {
    /// Makes the empty value.
    public init() {}

    /// Accepts any 2xx status and ignores the body.
    public static func parse(from response: Response) throws -> Empty {
        try response.requireSuccess()
        return Empty()
    }
}

extension String.Encoding {
    /// The encoding for an IANA charset name, for the common ones.
    init?(charsetName: String) {
        switch charsetName.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "us-ascii", "ascii": self = .ascii
        case "iso-8859-1", "latin1", "iso-latin-1": self = .isoLatin1
        case "iso-8859-2": self = .isoLatin2
        case "utf-16": self = .utf16
        case "utf-16be": self = .utf16BigEndian
        case "utf-16le": self = .utf16LittleEndian
        case "utf-32": self = .utf32
        case "windows-1252", "cp1252": self = .windowsCP1252
        case "windows-1251", "cp1251": self = .windowsCP1251
        case "shift_jis", "shift-jis": self = .shiftJIS
        case "euc-jp": self = .japaneseEUC
        default: return nil
        }
    }
}
