import Testing
@testable import Fetch

/// Durations turned into the numbers Foundation and Dispatch take, without trapping.
struct DurationSecondsTests {
    @Test func secondsKeepsFractions() {
        // Given durations with fractions of a second
        // When they are read as seconds
        // Then the fraction is kept
        #expect(Duration.milliseconds(1500).seconds == 1.5)
        #expect(Duration.zero.seconds == 0)
    }

    @Test func nanosecondsAreClampedInsteadOfTrapping() {
        // Given a negative duration, an ordinary one, and one longer than Int64.max seconds
        let huge = Duration.seconds(Int64.max) + .seconds(Int64.max)
        // When they are read as whole nanoseconds and seconds
        // Then the negative is 0, the ordinary exact, the huge clamped, and nothing traps
        #expect(Duration.seconds(-3).clampedNanoseconds == 0)
        #expect(Duration.milliseconds(1500).clampedNanoseconds == 1_500_000_000)
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == UInt64(Int64.max))
        #expect(huge.clampedNanoseconds == UInt64(Int64.max))
        #expect(huge.seconds > 1e19)
    }
}
