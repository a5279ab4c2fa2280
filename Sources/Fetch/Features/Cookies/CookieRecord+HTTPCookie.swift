extension CookieRecord {
    /// FoundationNetworking sets it to the moment the `HTTPCookie` is made, whatever the properties say.
    static let createdKey = HTTPCookiePropertyKey("Created")

    /// A domain with a leading dot applies to subdomains too; one without is host-only.
    init(_ cookie: HTTPCookie) {
        let domain = cookie.domain.lowercased()
        let created = (cookie.properties?[Self.createdKey] as? Double).map(Date.init(timeIntervalSinceReferenceDate:))
        self.init(
            name: cookie.name, value: cookie.value, domain: domain.hasPrefix(".") ? String(domain.dropFirst()) : domain,
            hostOnly: !domain.hasPrefix("."), path: cookie.path, expires: cookie.expiresDate, secure: cookie.isSecure,
            httpOnly: cookie.isHTTPOnly, created: created ?? .distantPast
        )
    }

    /// The cookie to put in a store; `nil` when `HTTPCookie` refuses the fields.
    var httpCookie: HTTPCookie? {
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: name, .value: value, .domain: hostOnly ? domain : ".\(domain)", .path: path,
            Self.createdKey: created.timeIntervalSinceReferenceDate,
        ]
        if let expires { properties[.expires] = expires } else { properties[.discard] = "TRUE" }
        if secure { properties[.secure] = "TRUE" }
        // The key `HTTPCookie.isHTTPOnly` reads; Foundation names no constant for it.
        if httpOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
        return HTTPCookie(properties: properties)
    }
}
