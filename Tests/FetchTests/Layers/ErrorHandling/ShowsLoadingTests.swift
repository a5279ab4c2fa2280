import Foundation
import Testing
import Fetch
import FetchTesting

/// `RequestOptions.showsLoading`: a call that keeps its loading to itself.
@Suite struct ShowsLoadingTests {
    @Test func aCallWithoutLoadingIsNotReportedAsLoadingButItsErrorIsShown() {
        // Given a presenter, a quiet call that succeeds and a quiet call that fails
        let presenter = SpyPresenter()
        let api = SpyPerformer([.status(200), .failure(.timedOut)]).handlingErrors([], presenter: presenter)

        // When both are made without loading
        performNow(api, get("http://x/feed").with(\.showsLoading, false))
        performNow(api, get("http://x/feed").with(\.showsLoading, false))

        // Then the presenter heard no loading, only the error
        #expect(presenter.events.all == ["show timedOut"])
    }

    @Test func aHeldCallWithLoadingIsReportedUntilItEnds() throws {
        // Given a presenter and a held call that shows loading (the default)
        let presenter = SpyPresenter()
        let spy = SpyPerformer([.hold])
        let api = spy.handlingErrors([], presenter: presenter)
        performNow(api, get("http://x/me"))
        let whileHeld = presenter.events.all

        // When the call is answered
        try #require(spy.pending.first).respond(.status(200))

        // Then loading started with the call and ended with its answer
        #expect(whileHeld == ["start"])
        #expect(presenter.events.all == ["start", "end"])
        #expect(RequestOptions().showsLoading)
    }
}
