/// Percent-encodes query items so every value reaches the server as given: all but RFC 3986's unreserved characters,
/// so `q=a+b` is sent as `q=a%2Bb` where `URLComponents` would send a `+` that servers read as a space.
public enum QueryEncoder {
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// Percent-encodes one name or value for a query string.
    public static func encode(_ string: String) -> String {
        // Only fails for unpaired surrogates, which a Swift String cannot hold.
        string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// The `application/x-www-form-urlencoded` text for `fields`: encoded like a query, space as `+`.
    static func form(_ fields: [(String, String)]) -> String {
        // Every `%` starts an escape, so each `%20` is an encoded space.
        query(fields.map { URLQueryItem(name: $0.0, value: $0.1) }).replacingOccurrences(of: "%20", with: "+")
    }

    /// The query string for `items`: `name=value` pairs joined by `&`; an item with a `nil` value is its name alone.
    public static func query(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = encode(item.name)
            guard let value = item.value else { return name }
            return name + "=" + encode(value)
        }.joined(separator: "&")
    }

    /// `url` with `items` appended to its query, keeping any query and fragment it had.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` when `url` cannot be split into components.
    public static func appending(_ items: [URLQueryItem], to url: URL) throws -> URL {
        guard !items.isEmpty else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw FetchError(.invalidRequest, reason: "the URL cannot be parsed to add query items", url: url)
        }
        let existing = components.percentEncodedQuery ?? ""
        components.percentEncodedQuery = (existing.isEmpty ? "" : existing + "&") + query(items)
        guard let result = components.url(relativeTo: url.baseURL) else {
            throw FetchError(.invalidRequest, reason: "the URL with query items is not valid", url: url)
        }
        return result
    }
}
