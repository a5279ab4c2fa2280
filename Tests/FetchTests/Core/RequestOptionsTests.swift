import Testing
import Fetch

struct RequestOptionsTests {
    private enum Retries: RequestOptionKey { static let defaultValue = 3 }
    private enum Marker: RequestOptionKey { static let defaultValue: String? = nil }

    @Test func unsetKeysReadTheirDefault() {
        // Given empty options
        let options = RequestOptions()
        // When keys are read
        // Then each reads its default and is not marked as set
        #expect(options[Retries.self] == 3)
        #expect(options[Marker.self] == nil)
        #expect(!options.contains(Retries.self))
    }

    @Test func settingAKeyReturnsACopy() {
        // Given empty options
        let original = RequestOptions()
        // When a key is set through `setting` and another through the subscript
        var changed = original.setting(Retries.self, to: 5)
        changed[Marker.self] = "skip-auth"
        // Then the copy holds both and the original is untouched
        #expect(changed[Retries.self] == 5)
        #expect(changed[Marker.self] == "skip-auth")
        #expect(changed.contains(Retries.self))
        #expect(original[Retries.self] == 3)
        #expect(!original.contains(Marker.self))
    }

    @Test func namedOptionsAreSetWithKeyPaths() {
        // Given options set through the named accessors
        let options = RequestOptions()
            .with(\.deadline, .seconds(5))
            .with(\.idleTimeout, .milliseconds(500))
            .with(\.maximumBodySize, 1024)
            .with(\.sensitiveHeaders, ["X-Api-Key"])
        // When read back
        // Then each holds its value, and unset ones keep their default
        #expect(options.deadline == .seconds(5))
        #expect(options.idleTimeout == .milliseconds(500))
        #expect(options.maximumBodySize == 1024)
        #expect(options.sensitiveHeaders == ["X-Api-Key"])
        #expect(options.redirectPolicy == nil)
        #expect(RequestOptions().deadline == nil)
    }

    @Test func mergingPrefersTheOtherSetValues() {
        // Given two option sets that overlap on one key
        let base = RequestOptions().setting(Retries.self, to: 1).setting(Marker.self, to: "base")
        let other = RequestOptions().setting(Retries.self, to: 9)
        // When merged
        let merged = base.merging(other)
        // Then the other's value wins and the rest is kept
        #expect(merged[Retries.self] == 9)
        #expect(merged[Marker.self] == "base")
    }
}
