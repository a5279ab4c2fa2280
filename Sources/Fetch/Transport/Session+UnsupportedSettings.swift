extension Session {
    /// Throws ``FetchError/Code-swift.enum/unsupportedSetting`` naming each setting this platform would ignore.
    static func refuseUnsupportedSettings(of settings: URLSessionConfiguration?, _ configuration: Configuration)
        throws
    {
        let refused = unsupportedSettings(of: settings, configuration)
        guard !refused.isEmpty else { return }
        throw FetchError(
            .unsupportedSetting,
            reason: "FoundationNetworking on Linux ignores "
                + (refused.count == 1 ? "this setting" : "these settings") + ": " + refused.joined(separator: "; "))
    }

    /// Each non-default setting this platform cannot honour, with what to do instead; empty on Apple platforms.
    static func unsupportedSettings(of settings: URLSessionConfiguration?, _ configuration: Configuration) -> [String] {
        #if canImport(FoundationNetworking)
        var refused: [String] = []
        func refuse(_ ignored: Bool, _ setting: String) { if ignored { refused.append(setting) } }
        refuse(
            configuration.urlCache != nil,
            "Session.Configuration.urlCache (no HTTP response is ever stored in it; use the caching layer, "
                + "Session().caching())")
        guard let settings else { return refused }
        let prefix = "URLSessionConfiguration."
        refuse(
            settings.connectionProxyDictionary?.isEmpty == false,
            prefix + "connectionProxyDictionary (requests would go to the origin directly; "
                + "set http_proxy, https_proxy and no_proxy in the environment)")
        refuse(
            !settings.allowsCellularAccess, prefix + "allowsCellularAccess = false (no link is known to be cellular)")
        refuse(settings.isDiscretionary, prefix + "isDiscretionary = true (requests start at once)")
        refuse(
            settings.networkServiceType != .default, prefix + "networkServiceType (every request is sent as .default)")
        let linuxOnly = settings as any LinuxIgnoredSettings
        refuse(
            linuxOnly.httpShouldUsePipelining,
            prefix + "httpShouldUsePipelining = true (libcurl has no HTTP/1.1 pipelining)")
        refuse(linuxOnly.shouldUseExtendedBackgroundIdleMode, prefix + "shouldUseExtendedBackgroundIdleMode = true")
        return refused
        #else
        return []
        #endif
    }
}

#if canImport(FoundationNetworking)
/// The settings FoundationNetworking marks deprecated, read (and, in tests, set) here without a warning.
protocol LinuxIgnoredSettings: AnyObject {
    var httpShouldUsePipelining: Bool { get set }
    var shouldUseExtendedBackgroundIdleMode: Bool { get set }
}

extension URLSessionConfiguration: LinuxIgnoredSettings {}
#endif
