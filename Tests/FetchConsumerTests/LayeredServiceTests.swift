import Foundation
import Testing
import Fetch
import FetchTesting
import FetchCaching

/// An app's service as apps write them: the performer is injected and stored as
/// `any RequestPerforming`, and the service adds its own layers on top.
struct ArticleService {
    struct Article: Codable, Parsable, Equatable {
        let id: Int
        let title: String
    }

    struct GetArticle: TypedRequest {
        typealias Output = Article
        let id: Int
        var url: URL { URL(string: "articles/\(id)")! }
    }

    let api: any RequestPerforming

    init(performer: any RequestPerforming, activity: any ActivityReporting) {
        var layered: any RequestPerforming =
            performer
            .enhanced(by: BaseURL("https://api.example.com"), Accept.json)
        layered = layered.retrying(.exponential(maxAttempts: 2), scheduler: ImmediateScheduler())
        layered = layered.refreshing(with: RefreshTokenHandler { done in done(.success(())) })
        layered = layered.handlingErrors([CodeErrorHandler(.notConnected) { error, _ in .replace(error) }])
        layered = layered.hooking(pre: [PreRequestHook("pass") { $0 }])
        layered = layered.logging(LogConfiguration(options: .none) { _ in }).coalescing()
        api = layered.reportingActivity(to: activity)
    }

    func article(_ id: Int) async throws -> Article {
        try await api.perform(GetArticle(id: id))
    }
}

@Suite struct LayeredServiceTests {
    @Test func everyLayerVerbWorksOnAnInjectedExistential() async throws {
        // Given a service whose injected performer is a spy that fails once with a 503
        let spy = SpyPerformer([.status(503), try .json(ArticleService.Article(id: 7, title: "Hello"))])
        let changes = Changes()
        let activity = ActivityCounter { busy in changes.append(busy) }
        let service = ArticleService(performer: spy, activity: activity)

        // When it asks for an article
        let article = try await service.article(7)

        // Then every layer did its part: the base URL was applied, the 503 was retried
        #expect(article == ArticleService.Article(id: 7, title: "Hello"))
        #expect(
            spy.calls.map { $0.urlRequest?.url?.absoluteString } == [
                "https://api.example.com/articles/7", "https://api.example.com/articles/7",
            ])
        #expect(spy.calls.last?.urlRequest?.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(changes.values == [true, false])
    }
}

/// What an ``ActivityCounter`` reported, in order.
final class Changes: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: [Bool] = []

    func append(_ value: Bool) { lock.withLock { stored.append(value) } }
    var values: [Bool] { lock.withLock { stored } }
}
