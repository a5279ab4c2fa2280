/// The `Cookie` field of one call, on each of its hops: the field the caller set, as written (its names win over the
/// store's), then the store's cookies for the hop's own URL, as RFC 6265 says. A redirect to another origin drops the
/// caller's field for the rest of the call, as it drops every credential (see ``RedirectPolicy``).
final class CallCookies: Sendable {
    let jar: CookieJar
    /// The `Cookie` field the caller set, while the call stays on its first origin.
    private let callerField: Locked<String?>

    /// Sets the `Cookie` field of `urlRequest`, the first hop, from the caller's and the store's.
    init(jar: CookieJar, request urlRequest: inout URLRequest) {
        self.jar = jar
        callerField = Locked(urlRequest.value(forHTTPHeaderField: "Cookie"))
        setField(of: &urlRequest)
    }

    /// The caller's field is gone for good once a hop leaves the origin.
    func prepare(hop next: inout URLRequest, after current: URLRequest) {
        if !RedirectPolicy.sameOrigin(current.url, next.url) { callerField.withLock { $0 = nil } }
        setField(of: &next)
    }

    /// Sets the caller's field, then the stored cookies whose names it lacks; none when both are empty.
    private func setField(of urlRequest: inout URLRequest) {
        let caller = callerField.withLock { $0 } ?? ""
        let stored = urlRequest.url.map(jar.cookies(for:)) ?? []
        let pairs = caller.split(separator: ";")
        let names = Set(pairs.map { $0.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces) })
        let added = stored.filter { !names.contains($0.name) }
        let field = [caller, CookieRecord.fieldValue(added)].filter { !$0.isEmpty }.joined(separator: "; ")
        urlRequest.setValue(field.isEmpty ? nil : field, forHTTPHeaderField: "Cookie")
    }
}
