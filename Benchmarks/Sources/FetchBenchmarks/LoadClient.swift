import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch
import FetchCaching

/// Sends one request of a workload and reports how it went.
protocol LoadClient: Sendable {
    /// Sends one request; `done` gets `nil` for the expected response, or what went wrong.
    func send(_ done: @escaping @Sendable (String?) -> Void)
}

/// The configuration both clients share: Fetch's defaults with the workload's connection limit.
func sharedConfiguration(maximumConnections: Int) -> Session.Configuration {
    var configuration = Session.Configuration()
    configuration.maximumConnectionsPerHost = maximumConnections
    configuration.maximumBodySize = 256 * 1024 * 1024
    return configuration
}

/// The workload through Fetch's `Session`, alone or under the README's recommended stack.
struct FetchClient: LoadClient {
    let performer: any RequestPerforming
    let request: any Request
    let expectedSize: Int

    /// - Parameter side: `.fetchStack` sends calls through ``FullStack/recommended(over:)``, with
    ///   the path relative to its base URL and the cache told to reload (the raw client's
    ///   requests are never answered from a cache, nor made conditional); `.fetchLayers` through
    ///   ``FullStack/plain(over:)``; any other side straight to `Session`.
    init(
        url: URL, method: String, body: Data?, expectedSize: Int, configuration: Session.Configuration,
        side: Side = .fetch
    ) {
        let session = Session(configuration: configuration)
        let basic = BasicRequest(url: url, method: HTTPMethod(rawValue: method), body: body.map { .data($0) })
        if side == .fetchLayers {
            performer = FullStack.plain(over: session)
            request = basic
        } else if side == .fetchStack {
            var base = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            base.path = "/"
            performer = FullStack.recommended(over: session, baseURL: base.url!.absoluteString)
            var relative = basic
            relative.url = URL(string: String(url.path.dropFirst()))!
            request = relative.with(\.cachePolicy, .reload)
        } else {
            performer = session
            request = basic
        }
        self.expectedSize = expectedSize
    }

    func send(_ done: @escaping @Sendable (String?) -> Void) {
        let expectedSize = self.expectedSize
        performer.perform(request) { result in
            switch result {
            case .success(let response):
                done(check(status: response.status, size: response.body.count, expectedSize: expectedSize))
            case .failure(let error):
                done("\(error)")
            }
        }
    }
}

/// The workload through URLSession configured as `Session` configures it, with
/// completion-handler data tasks.
struct RawClient: LoadClient {
    let session: URLSession
    let request: URLRequest
    let expectedSize: Int
    /// A queue each completion is handed to first, when exploring what that hop costs.
    let hop: DispatchQueue?
    /// The token each call sends as `Authorization: Bearer`, with `Accept: application/json`;
    /// `nil` to send the request as it is.
    let token: TokenStore?

    init(
        url: URL, method: String, body: Data?, expectedSize: Int, configuration: Session.Configuration,
        hop: Bool = false, setsHeaders: Bool = false
    ) {
        session = URLSession(configuration: .mirroring(configuration))
        request = URLRequest(raw: url, method: method, body: body, configuration: configuration)
        self.expectedSize = expectedSize
        self.hop = hop ? DispatchQueue(label: "raw-hop", attributes: .concurrent) : nil
        token = setsHeaders ? TokenStore("abc123") : nil
    }

    func send(_ done: @escaping @Sendable (String?) -> Void) {
        let expectedSize = self.expectedSize
        let hop = self.hop
        var request = self.request
        if let token {
            request.setValue("Bearer " + (token.token ?? ""), forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
        }
        session.dataTask(with: request) { data, response, error in
            let failure: String? =
                if let error { "\(error)" } else {
                    check(
                        status: (response as? HTTPURLResponse)?.statusCode ?? 0, size: data?.count ?? 0,
                        expectedSize: expectedSize)
                }
            if let hop { hop.async { done(failure) } } else { done(failure) }
        }.resume()
    }
}

extension URLRequest {
    /// The request a raw client sends for a workload.
    init(raw url: URL, method: String, body: Data?, configuration: Session.Configuration) {
        self.init(url: url)
        httpMethod = method
        if let body {
            httpBody = body
            setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        timeoutInterval = configuration.idleTimeout.seconds
    }
}

/// `nil` when a response has status 200 and the expected body size, else what differs.
func check(status: Int, size: Int, expectedSize: Int) -> String? {
    if status != 200 { return "status \(status)" }
    if size != expectedSize { return "body of \(size) bytes, expected \(expectedSize)" }
    return nil
}

extension URLSessionConfiguration {
    /// The URLSession settings `Session` makes from `configuration`, for a raw client to
    /// be measured on equal terms.
    static func mirroring(_ configuration: Session.Configuration) -> URLSessionConfiguration {
        let settings = URLSessionConfiguration.ephemeral
        settings.urlCache = nil
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.httpCookieStorage = nil
        settings.httpShouldSetCookies = false
        settings.httpCookieAcceptPolicy = .never
        settings.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
        settings.timeoutIntervalForRequest = configuration.idleTimeout.seconds
        settings.timeoutIntervalForResource = max(configuration.deadline.seconds, 1)
        return settings
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
