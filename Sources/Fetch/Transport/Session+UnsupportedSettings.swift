extension Session {
    /// Fails when `settings` or `configuration` asks for something this platform accepts and ignores; a default
    /// value is never refused. <doc:SafetyOnLinux> says what each one does there.
    /// - Throws: ``FetchError/Code-swift.enum/unsupportedSetting`` naming every such setting.
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

    /// Each setting this platform cannot honour, with what to do instead; empty on Apple platforms, which honour all.
    static func unsupportedSettings(of settings: URLSessionConfiguration?, _ configuration: Configuration) -> [String] {
        #if canImport(FoundationNetworking)
        var refused: [String] = []
        func refuse(_ ignored: Bool, _ setting: String) { if ignored { refused.append(setting) } }
        refuse(
            configuration.urlCache != nil,
            "Session.Configuration.urlCache (no HTTP response is ever stored in it; use the caching layer, "
                + "Session().caching())")
        guard let settings else { return refused }
        refuse(
            settings.connectionProxyDictionary?.isEmpty == false,
            "URLSessionConfiguration.connectionProxyDictionary (requests would go to the origin directly; "
                + "set http_proxy, https_proxy and no_proxy in the environment)")
        refuse(
            !settings.allowsCellularAccess,
            "URLSessionConfiguration.allowsCellularAccess = false (no link is known to be cellular)")
        refuse(settings.isDiscretionary, "URLSessionConfiguration.isDiscretionary = true (requests start at once)")
        refuse(
            settings.networkServiceType != .default,
            "URLSessionConfiguration.networkServiceType (every request is sent as .default)")
        let linuxOnly = settings as any LinuxIgnoredSettings
        refuse(
            linuxOnly.httpShouldUsePipelining,
            "URLSessionConfiguration.httpShouldUsePipelining = true (libcurl has no HTTP/1.1 pipelining)")
        refuse(
            linuxOnly.shouldUseExtendedBackgroundIdleMode,
            "URLSessionConfiguration.shouldUseExtendedBackgroundIdleMode = true")
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
