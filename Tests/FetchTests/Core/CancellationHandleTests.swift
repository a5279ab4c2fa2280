import Testing
import Fetch

struct CancellationHandleTests {
    @Test func theActionRunsOnceOnTheFirstCancel() {
        // Given a handle with an action
        let runs = Captured<Void>()
        let handle = CancellationHandle { runs.record(()) }
        // When it is cancelled three times
        handle.cancel()
        handle.cancel()
        handle.cancel()
        // Then the action ran once and the handle says it is cancelled
        #expect(runs.count == 1)
        #expect(handle.isCancelled)
    }

    @Test func anActionSetAfterCancellingRunsAtOnce() {
        // Given a handle cancelled before it had an action
        let handle = CancellationHandle()
        handle.cancel()
        let runs = Captured<Void>()
        // When an action is set
        handle.setAction { runs.record(()) }
        // Then it runs at once, and a further cancel does not run it again
        #expect(runs.count == 1)
        handle.cancel()
        #expect(runs.count == 1)
    }

    @Test func setActionReplacesTheActionBeforeCancelling() {
        // Given a handle whose action is replaced before any cancel
        let first = Captured<Void>()
        let second = Captured<Void>()
        let handle = CancellationHandle { first.record(()) }
        handle.setAction { second.record(()) }
        #expect(!handle.isCancelled)
        // When it is cancelled
        handle.cancel()
        // Then only the new action ran
        #expect(first.count == 0)
        #expect(second.count == 1)
    }
}
