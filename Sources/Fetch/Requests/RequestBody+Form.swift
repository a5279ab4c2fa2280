import Foundation

extension RequestBody {
    /// Fields as `application/x-www-form-urlencoded`, in order.
    ///
    /// Names and values are percent-encoded (space as `+`, a literal `+` as `%2B`), so
    /// every value arrives as given.
    public static func form(_ fields: [(String, String)]) -> RequestBody {
        let encoded = fields
            .map { QueryEncoder.formEncode($0.0) + "=" + QueryEncoder.formEncode($0.1) }
            .joined(separator: "&")
        return RequestBody(source: .data(Data(encoded.utf8)), contentType: "application/x-www-form-urlencoded")
    }

    /// Fields as `application/x-www-form-urlencoded`, sorted by name for a stable body.
    public static func form(_ fields: [String: String]) -> RequestBody {
        form(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
