extension Data: Parsable {
    /// The body as it came, for any 2xx status.
    public static func parse(from response: Response) throws -> Data {
        try response.requireSuccess()
        return response.body
    }
}

extension String: Parsable {
    /// The body as text in the charset of `Content-Type` (UTF-8 by default), for any 2xx status.
    /// - Throws: ``FetchError/Code-swift.enum/decoding`` for an unknown charset or invalid bytes.
    public static func parse(from response: Response) throws -> String {
        try response.requireSuccess()
        let name = response.charset ?? "utf-8"
        guard let encoding = String.Encoding.ofCharset[name.lowercased()] else {
            throw FetchError(.decoding, about: response, reason: "unknown charset \"\(name)\"")
        }
        guard let text = String(data: response.body, encoding: encoding) else {
            throw FetchError(.decoding, about: response, reason: "the body is not valid \(name) text")
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
    /// The encodings of the common IANA charset names, lowercased.
    static let ofCharset: [String: String.Encoding] = [
        "utf-8": .utf8, "utf8": .utf8, "us-ascii": .ascii, "ascii": .ascii,
        "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso-latin-1": .isoLatin1, "iso-8859-2": .isoLatin2,
        "utf-16": .utf16, "utf-16be": .utf16BigEndian, "utf-16le": .utf16LittleEndian, "utf-32": .utf32,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252, "windows-1251": .windowsCP1251,
        "cp1251": .windowsCP1251, "shift_jis": .shiftJIS, "shift-jis": .shiftJIS, "euc-jp": .japaneseEUC,
    ]
}
