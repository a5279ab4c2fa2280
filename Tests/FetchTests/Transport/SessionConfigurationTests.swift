import Foundation
import Testing
import Fetch

struct SessionConfigurationTests {
    @Test func defaultsAreSafe() {
        // Given the default configuration
        let configuration = Session.Configuration()
        // When read
        // Then it has a deadline, bounded bodies, no disk state and a Fetch user agent
        #expect(configuration.deadline == .seconds(60))
        #expect(configuration.idleTimeout == .seconds(30))
        #expect(configuration.maximumBodySize == 32 * 1024 * 1024)
        #expect(configuration.cookieStorage == nil)
        #expect(configuration.urlCache == nil)
        #expect(configuration.completionQueue == nil)
        #expect(configuration.userAgent == "Fetch/\(Session.version)")
        #expect(configuration.redirectPolicy.maximumHops == 10)
        #expect(configuration.maximumConnectionsPerHost == 6)
    }
}
