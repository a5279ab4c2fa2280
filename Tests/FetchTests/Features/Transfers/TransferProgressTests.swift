import Testing
@testable import Fetch

struct TransferProgressTests {
    @Test func fractionIsKnownOnlyWithATotal() {
        // Given reports with and without a total
        let known = TransferProgress(completedBytes: 250, expectedBytes: 1000)
        let unknown = TransferProgress(completedBytes: 250, expectedBytes: nil)
        // When their fractions are read
        // Then a total gives a share, no total gives none, a finished report gives 1
        #expect(known.fractionCompleted == 0.25)
        #expect(unknown.fractionCompleted == nil)
        #expect(TransferProgress.finished(0).fractionCompleted == 1)
        #expect(TransferProgress(completedBytes: 20, expectedBytes: 10).fractionCompleted == 1)
    }

    @Test func descriptionReadsAsMegabytes() {
        // Given a report of 12.5 MB out of 100 MB
        let progress = TransferProgress(completedBytes: 12_500_000, expectedBytes: 100_000_000)
        // When it is described
        // Then it reads in megabytes with a percentage
        #expect(progress.description == "12.5 MB of 100.0 MB (12%)")
        #expect(TransferProgress(completedBytes: 3_140_000, expectedBytes: nil).description == "3.1 MB")
    }

    @Test func throttleLetsOneReportThroughPerInterval() {
        // Given a throttle of 50 ms
        var throttle = ProgressThrottle(interval: 50_000_000)
        // When reports come at 0, 10, 49, 50, 60 and 120 ms
        let passed = [0, 10, 49, 50, 60, 120].map { throttle.allows(at: UInt64($0) * 1_000_000 + 1) }
        // Then the first and those 50 ms after the last one passed go through
        #expect(passed == [true, false, false, true, false, true])
    }
}
