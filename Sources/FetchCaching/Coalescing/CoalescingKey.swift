import Fetch

/// What makes two calls identical for a ``CoalescingPerformer``: the method, the URL with
/// its query, and every header field as it would be sent, except the ones it ignores.
struct CoalescingKey: Hashable, Sendable {
    let method: String
    let url: String
    /// Header fields by lowercased name, so that order and casing do not matter.
    let headers: [String: String]
    /// Computed once: a key is hashed each time its flight is joined, started and ended.
    private let digest: Int

    /// Whether `request` may share: a plain GET or HEAD without a body (other kinds' bodies go to each caller).
    static func mayShare(_ request: any Request) -> Bool {
        switch request.options.kind {
        case .plain: break
        case .download, .upload, .stream: return false
        }
        let method = request.method
        return (method == .get || method == .head) && request.body == nil
    }

    /// The key of a call that sends `fields` (a `URLRequest`'s, in its order) with `method` to `url`, made absolute.
    init(
        _ method: String, _ url: URL, fields: some Sequence<(key: String, value: String)>, ignoring ignored: Set<String>
    ) {
        self.method = method
        self.url = url.absoluteString
        var headers: [String: String] = [:]
        for (name, value) in fields {
            let name = name.lowercased()
            guard ignored.isEmpty || !ignored.contains(name) else { continue }
            // Spellings of one name (set as a whole by `adjust`) all count, in any order; checked values hold no LF.
            let all = headers[name].map { $0.split(separator: "\n", omittingEmptySubsequences: false) + [value[...]] }
            headers[name] = all?.sorted().joined(separator: "\n") ?? value
        }
        self.headers = headers
        var hasher = Hasher()
        hasher.combine(self.method)
        hasher.combine(self.url)
        hasher.combine(headers)
        digest = hasher.finalize()
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.digest == rhs.digest && lhs.method == rhs.method && lhs.url == rhs.url && lhs.headers == rhs.headers
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}
