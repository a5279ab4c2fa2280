import Foundation
import Fetch
import FetchTesting
import FetchCaching

/// The full layer stack whose overhead is measured over a bare spy, and each of its
/// layers alone.
///
/// Every call goes through each layer once and reaches the spy once: the spy answers 200,
/// so the retry policy stops after the first attempt, the refresh handler (401 only) never
/// refreshes, the error handlers see no error, the hooks let everything through, and
/// logging has nothing to log.
enum FullStack {
    /// The number of layers the stack wraps around the spy: three enhancers, retry, error
    /// handlers, a refresh handler, hooks and logging (off). The overhead per layer is
    /// the stack's cost over the bare spy divided by this.
    static let layerCount = 8

    /// The base URL the stack puts in front of ``relativePath``.
    static let baseURL = "http://127.0.0.1"

    /// The request path the stack's callers send; `BaseURL` makes it absolute.
    static let relativePath = "articles/4711"

    /// One layer (or the enhancers together) over a spy, measured alone.
    struct Layer: Sendable {
        /// The layer's name in the report.
        var name: String
        /// Whether the layer needs a relative request URL (it puts the base URL in front).
        var takesRelativeURL: Bool
        /// How many of the stack's layers this stands for (the target scales with it).
        var count = 1
        /// Wraps the spy in the layer.
        var make: @Sendable (SpyPerformer) -> any RequestPerforming
    }

    /// The stack over `spy`, outermost first as a caller meets it: logging (off), hooks,
    /// error handlers, refresh handler, retry, three enhancers. Call it with a request for
    /// ``relativePath``.
    static func make(over spy: SpyPerformer) -> any RequestPerforming {
        spy.enhanced(by: enhancers())
            .retrying(retryPolicy, scheduler: ImmediateScheduler())
            .refreshing(with: refreshHandler())
            .handlingErrors(errorHandlers())
            .hooking(pre: preHooks, post: postHooks)
            .logging(loggingOff)
    }

    /// The README's recommended order over `base`, outermost first as a caller meets it:
    /// logging (off), refresh handler, `BaseURL` and `BearerToken`, coalescing, the cache,
    /// retry. Call it with a path relative to `baseURL`.
    static func recommended(over base: any RequestPerforming, baseURL: String = baseURL) -> any RequestPerforming {
        base.retrying(retryPolicy, scheduler: ImmediateScheduler())
            .caching()
            .coalescing()
            .enhanced(by: BaseURL(baseURL), BearerToken(TokenStore("abc123")))
            .refreshing(with: refreshHandler())
            .logging(loggingOff)
    }

    /// The layers most apps put over `base` when they need no cache, outermost first: logging
    /// (off), retry, and `BearerToken` and `Accept.json` in one enhancing layer.
    static func plain(over base: any RequestPerforming) -> any RequestPerforming {
        base.enhanced(by: BearerToken(TokenStore("abc123")), Accept.json)
            .retrying(retryPolicy, scheduler: ImmediateScheduler())
            .logging(loggingOff)
    }

    /// Each layer of ``make(over:)`` alone over a spy; the enhancers also one by one.
    static let layers: [Layer] = [
        Layer(name: "BaseURL", takesRelativeURL: true) { $0.enhanced(by: BaseURL(baseURL)) },
        Layer(name: "BearerToken", takesRelativeURL: false) { $0.enhanced(by: BearerToken(TokenStore("abc123"))) },
        Layer(name: "Accept", takesRelativeURL: false) { $0.enhanced(by: Accept.json) },
        Layer(name: "an enhancer that does nothing", takesRelativeURL: false) { $0.enhanced(by: NothingEnhancer()) },
        Layer(name: "the three enhancers in one layer", takesRelativeURL: true, count: 3) {
            $0.enhanced(by: enhancers())
        },
        Layer(name: "retry", takesRelativeURL: false) { $0.retrying(retryPolicy, scheduler: ImmediateScheduler()) },
        Layer(name: "refresh handler", takesRelativeURL: false) { $0.refreshing(with: refreshHandler()) },
        Layer(name: "error handlers", takesRelativeURL: false) { $0.handlingErrors(errorHandlers()) },
        Layer(name: "hooks", takesRelativeURL: false) { $0.hooking(pre: preHooks, post: postHooks) },
        Layer(name: "logging off", takesRelativeURL: false) { $0.logging(loggingOff) },
        Layer(
            name: "bearer token, Accept, retry and logging (3 layers, 2 enhancers)", takesRelativeURL: false, count: 3
        ) {
            plain(over: $0)
        },
        Layer(name: "the README's recommended stack (6 layers, 2 enhancers)", takesRelativeURL: true, count: 7) {
            recommended(over: $0)
        },
    ]

    private static func enhancers() -> [any Enhancer] {
        [BaseURL(baseURL), BearerToken(TokenStore("abc123")), Accept.json]
    }

    /// Retries up to 3 attempts; a 200 stops it after the first.
    private static let retryPolicy = RetryPolicy.exponential(maxAttempts: 3)

    /// Refreshes after a 401, which the spy never answers.
    private static func refreshHandler() -> RefreshTokenHandler {
        RefreshTokenHandler(TokenStore("abc123")) { "new-token" }
    }

    private static func errorHandlers() -> [any ErrorHandler] {
        [
            CodeErrorHandler(.notConnected) { error, _ in .replace(error) },
            StatusErrorHandler(401, 403) { _, _ in .pass },
        ]
    }

    private static let preHooks = [PreRequestHook("pass") { $0 }]
    private static let postHooks = [PostRequestHook("pass") { _, _ in .continue }]

    /// An enhancer that changes nothing: what an enhancing layer costs by itself.
    private struct NothingEnhancer: Enhancer {}

    /// Logging with nothing to log: the layer is there, its options are empty.
    private static let loggingOff = LogConfiguration(options: .none) { _ in }
}
