/// A session's cookie store, read and written by Fetch's RFC 6265 rules: FoundationNetworking's `cookies(for:)`
/// matches on the host only (ignoring `Secure`, `Path`) and adds no cookie to the redirects a delegate follows.
struct CookieJar: Sendable {
    let storage: HTTPCookieStorage
    let clock: @Sendable () -> Date

    init(_ storage: HTTPCookieStorage, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = storage
        self.clock = clock
    }

    /// Stores the cookies of every `Set-Cookie` field of `response`, as set by its URL.
    func store(from response: HTTPURLResponse) {
        guard let url = response.url, let field = response.value(forHTTPHeaderField: "Set-Cookie") else { return }
        store(SetCookie.split(folded: field), from: url)
    }

    /// Stores cookies received from `url` (§5.3): each replaces the one of the same name, domain and path (host-only
    /// or not, step 11), and an expired one only removes it. Nothing changes under `.never`.
    func store(_ strings: [String], from url: URL) {
        guard storage.cookieAcceptPolicy != .never else { return }
        let now = clock()
        let accepted = strings.compactMap { SetCookie($0).flatMap { CookieRecord(accepting: $0, from: url, at: now) } }
        for var record in accepted {
            for old in storage.cookies ?? [] {
                let stored = CookieRecord(old)
                if (stored.name, stored.domain, stored.path) == (record.name, record.domain, record.path) {
                    record.created = min(record.created, stored.created)
                    storage.deleteCookie(old)
                }
            }
            if !record.isExpired(at: now), let cookie = record.httpCookie { storage.setCookie(cookie) }
        }
    }

    /// The cookies that go with a request to `url`, in sending order; removes the expired ones from the store.
    func cookies(for url: URL) -> [CookieRecord] {
        let now = clock()
        var live: [CookieRecord] = []
        for cookie in storage.cookies ?? [] {
            let record = CookieRecord(cookie)
            if record.isExpired(at: now) { storage.deleteCookie(cookie) } else { live.append(record) }
        }
        return CookieRecord.sent(to: url, from: live, at: now)
    }
}
