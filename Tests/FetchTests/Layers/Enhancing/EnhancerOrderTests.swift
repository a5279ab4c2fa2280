import Testing
import Fetch
import FetchTesting

@Suite struct EnhancerOrderTests {
    @Test func higherPriorityRunsFirstAndEqualPrioritiesKeepTheirOrder() {
        // Given enhancers of mixed priorities, two of them equal
        let performer = SpyPerformer().enhanced(by: [
            Mark<A>(tag: "low", priority: .low), Mark<B>(tag: "normal1"),
            Mark<C>(tag: "high", priority: .high), Mark<D>(tag: "normal2"),
            Mark<A>(tag: "custom", priority: EnhancerPriority(600)),
        ])

        // When the performer orders them
        let names = performer.enhancers.map(\.name)

        // Then high runs first, then the custom 600, the normal ones in the order given, low last
        #expect(names == ["high", "custom", "normal1", "normal2", "low"])
    }

    @Test func relativeEnhancersGoJustBeforeOrAfterTheirAnchor() {
        // Given enhancers placed relative to other types
        let performer = SpyPerformer().enhanced(by: [
            Mark<A>(tag: "a"), Mark<B>(tag: "b", priority: .low),
            Mark<C>(tag: "after-a-1", priority: .after(Mark<A>.self)),
            Mark<C>(tag: "after-a-2", priority: .after(Mark<A>.self)),
            Mark<D>(tag: "before-b", priority: .before(Mark<B>.self)),
        ])

        // When the performer orders them
        let names = performer.enhancers.map(\.name)

        // Then each sits next to its anchor, in the order given
        #expect(names == ["a", "after-a-1", "after-a-2", "before-b", "b"])
    }

    @Test func aMissingAnchorCountsAsNormal() {
        // Given an enhancer placed after a type that is not in the list
        let performer = SpyPerformer().enhanced(by: [
            Mark<A>(tag: "low", priority: .low), Mark<B>(tag: "orphan", priority: .after(Mark<D>.self)),
            Mark<C>(tag: "high", priority: .high),
        ])

        // When the performer orders them
        let names = performer.enhancers.map(\.name)

        // Then the orphan runs at normal priority
        #expect(names == ["high", "orphan", "low"])
    }

    @Test func relativeEnhancersFollowChainsAndCyclesGoLast() {
        // Given a chain (after-c after c, c after a) and two enhancers anchored on each other
        let performer = SpyPerformer().enhanced(by: [
            Mark<Int>(tag: "x", priority: .after(Mark<String>.self)), Mark<A>(tag: "a", priority: .low),
            Mark<B>(tag: "after-c", priority: .after(Mark<C>.self)),
            Mark<C>(tag: "c", priority: .after(Mark<A>.self)),
            Mark<String>(tag: "y", priority: .before(Mark<Int>.self)), Mark<D>(tag: "high", priority: .high),
        ])

        // When the performer orders them
        let names = performer.enhancers.map(\.name)

        // Then the chain follows its first anchor, and the cycle comes last in the order given
        #expect(names == ["high", "a", "c", "after-c", "x", "y"])
    }

    @Test func requestsRunEnhancersInOrderAndResponsesInReverse() throws {
        // Given a spy below two enhancers
        let spy = SpyPerformer([.status(200)])
        let performer = spy.enhanced(by: Mark<A>(tag: "second"), Mark<B>(tag: "first", priority: .high))

        // When a request is performed
        let response = try #require(performNow(performer, get("http://x/y"))).get()

        // Then the request went out first-then-second and the response came back second-then-first
        #expect(spy.urlRequests.first??.value(forHTTPHeaderField: "X-Order") == "first,second")
        #expect(response.headers.values(for: "X-Seen") == ["second", "first"])
    }

    @Test func aRequestCanAddEnhancersForOneCall() {
        // Given a performer with one enhancer and a request carrying another of higher priority
        let spy = SpyPerformer([.status(200)])
        let performer = spy.enhanced(by: Mark<A>(tag: "stack"))
        var options = RequestOptions()
        options.enhancers = [Mark<B>(tag: "request", priority: .high)]

        // When it is performed
        let result = performNow(performer, get("http://x/y", options: options))

        // Then both ran, ordered together
        #expect(outcome(result) == "200")
        #expect(spy.urlRequests.first??.value(forHTTPHeaderField: "X-Order") == "request,stack")
    }

    @Test func requestEnhancersRunOnceThroughStackedLayers() {
        // Given two enhancing layers and a request carrying one enhancer of its own
        let spy = SpyPerformer([.status(200)])
        let performer = spy.enhanced(by: Mark<A>(tag: "inner")).enhanced(by: Mark<B>(tag: "outer"))
        var options = RequestOptions()
        options.enhancers = [Mark<C>(tag: "request")]

        // When it is performed
        let result = performNow(performer, get("http://x/y", options: options))

        // Then the request's enhancer ran once, in the first layer it met
        #expect(outcome(result) == "200")
        #expect(spy.urlRequests.first??.value(forHTTPHeaderField: "X-Order") == "outer,request,inner")
    }
}
