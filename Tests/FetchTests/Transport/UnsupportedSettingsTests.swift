import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// A setting the platform would accept and then ignore is refused with a named error; a
/// default never is.
struct UnsupportedSettingsTests {
    /// Each transport setting that FoundationNetworking on Linux never honours, set to a
    /// value other than its default.
    enum Ignored: String, CaseIterable, Sendable {
        case connectionProxyDictionary, allowsCellularAccess, isDiscretionary, networkServiceType
        case httpShouldUsePipelining, shouldUseExtendedBackgroundIdleMode

        /// A configuration with this setting changed from its default, and nothing else.
        func configuration() -> URLSessionConfiguration {
            let settings = URLSessionConfiguration.ephemeral
            switch self {
            case .connectionProxyDictionary: settings.connectionProxyDictionary = ["HTTPEnable": 1]
            case .allowsCellularAccess: settings.allowsCellularAccess = false
            case .isDiscretionary: settings.isDiscretionary = true
            case .networkServiceType: settings.networkServiceType = .background
            case .httpShouldUsePipelining: Self.setDeprecated(settings, pipelining: true)
            case .shouldUseExtendedBackgroundIdleMode: Self.setDeprecated(settings, idleMode: true)
            }
            return settings
        }

        private static func setDeprecated(
            _ settings: URLSessionConfiguration, pipelining: Bool = false, idleMode: Bool = false
        ) {
            #if canImport(FoundationNetworking)
            let deprecated = settings as any LinuxIgnoredSettings
            deprecated.httpShouldUsePipelining = pipelining
            deprecated.shouldUseExtendedBackgroundIdleMode = idleMode
            #else
            settings.httpShouldUsePipelining = pipelining
            settings.shouldUseExtendedBackgroundIdleMode = idleMode
            #endif
        }
    }

    @Test(arguments: Ignored.allCases)
    func aSettingLinuxIgnoresIsRefusedThere(setting: Ignored) throws {
        // Given a configuration with one setting changed from its default
        let settings = setting.configuration()

        // When a session is made from it
        // Then on Linux it throws, naming the setting; elsewhere it is honoured
        #if canImport(FoundationNetworking)
        let error = #expect(throws: FetchError.self) { try Session(urlSessionConfiguration: settings) }
        #expect(error?.code == .unsupportedSetting)
        #expect(error?.reason.contains("URLSessionConfiguration.\(setting.rawValue)") == true)
        #else
        _ = try Session(urlSessionConfiguration: settings)
        #endif
    }

    @Test func defaultsAreNeverRefused() throws {
        // Given the platform's default and ephemeral configurations, and an empty proxy dictionary
        let empty = URLSessionConfiguration.ephemeral
        empty.connectionProxyDictionary = [:]
        for settings in [URLSessionConfiguration.default, .ephemeral, empty] {
            // When a session is made from each, then none is refused
            #expect(Session.unsupportedSettings(of: settings, Session.Configuration()) == [])
            _ = try Session(urlSessionConfiguration: settings)
        }
    }

    @Test func everyRefusedSettingIsNamedInOneError() throws {
        // Given a configuration with a proxy and without cellular access, and a URL cache
        let settings = URLSessionConfiguration.ephemeral
        settings.connectionProxyDictionary = ["HTTPEnable": 1]
        settings.allowsCellularAccess = false
        var configuration = Session.Configuration()
        configuration.urlCache = URLCache(memoryCapacity: 1024, diskCapacity: 0, diskPath: nil)

        // When a session is made from them
        // Then on Linux one error names all three; elsewhere nothing is refused
        #if canImport(FoundationNetworking)
        let error = #expect(throws: FetchError.self) {
            try Session(urlSessionConfiguration: settings, configuration: configuration)
        }
        #expect(error?.code == .unsupportedSetting)
        for name in ["connectionProxyDictionary", "allowsCellularAccess", "Session.Configuration.urlCache"] {
            #expect(error?.reason.contains(name) == true)
        }
        #else
        _ = try Session(urlSessionConfiguration: settings, configuration: configuration)
        #endif
    }

    #if canImport(FoundationNetworking)
    @Test func aURLCacheMakesEveryRequestFailOnLinux() async {
        // Given a session (whose initializer does not throw) with a URL cache
        var configuration = Session.Configuration()
        configuration.urlCache = URLCache(memoryCapacity: 1024, diskCapacity: 0, diskPath: nil)
        let session = Session(configuration: configuration)

        // When a request is made (to a port nothing listens on: nothing may be sent)
        let error = await #expect(throws: FetchError.self) {
            try await session.response(for: BasicRequest(url: URL(string: "http://127.0.0.1:9/")!))
        }

        // Then it fails before sending, naming the setting and the way that works
        #expect(error?.code == .unsupportedSetting)
        #expect(error?.reason.contains("urlCache") == true)
        #expect(error?.reason.contains("caching") == true)
    }
    #endif
}
