/// The `Cookie` field of one call, on each of its hops: the field the caller set, while it
/// stays on its origin, then the store's cookies for the hop's URL.
///
/// - A `Cookie` field the caller set is kept as written and goes first; a cookie of the
///   store with a name the caller's field already has is left out (the caller's value wins).
/// - A redirect to another origin drops the caller's field for the rest of the call, as it
///   drops every credential (see ``RedirectPolicy``); the store's cookies are computed for
///   every hop's own URL, so a redirect to another host carries that host's cookies, as
///   RFC 6265 says, and never the first host's.
final class CallCookies: Sendable {
    /// The store, read and written by the RFC's rules.
    let jar: CookieJar
    /// The `Cookie` field the caller set, while the call stays on its first origin.
    private let callerField: Locked<String?>

    /// Takes over the cookies of `urlRequest`, the first hop of a call, and sets its
    /// `Cookie` field from the caller's and the store's.
    init(jar: CookieJar, request urlRequest: inout URLRequest) {
        self.jar = jar
        callerField = Locked(urlRequest.value(forHTTPHeaderField: "Cookie"))
        setField(of: &urlRequest)
    }

    /// Sets the `Cookie` field of `next`, a redirect hop of `current`: the caller's field
    /// is gone for good once a hop leaves the origin.
    func prepare(hop next: inout URLRequest, after current: URLRequest) {
        if !RedirectPolicy.sameOrigin(current.url, next.url) { callerField.withLock { $0 = nil } }
        setField(of: &next)
    }

    /// Sets the `Cookie` field of `urlRequest` from the caller's and the store's, or removes
    /// it when neither has one.
    private func setField(of urlRequest: inout URLRequest) {
        let caller = callerField.withLock { $0 }
        let stored = urlRequest.url.map(jar.cookies(for:)) ?? []
        let field = Self.merged(caller: caller, stored: stored)
        urlRequest.setValue(field, forHTTPHeaderField: "Cookie")
    }

    /// The `Cookie` field made of the caller's `caller` and the store's `stored`: the caller's
    /// first, then the stored cookies whose names it lacks; `nil` when there is nothing.
    static func merged(caller: String?, stored: [CookieRecord]) -> String? {
        guard let caller, !caller.isEmpty else { return stored.isEmpty ? nil : CookieRecord.fieldValue(stored) }
        let pairs = caller.split(separator: ";")
        let names = Set(pairs.map { $0.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces) })
        let added = stored.filter { !names.contains($0.name) }
        return added.isEmpty ? caller : "\(caller); \(CookieRecord.fieldValue(added))"
    }
}
