extension Session {
    /// Makes a session over a copy of your `URLSessionConfiguration` with Fetch's safety settings; yours is unchanged.
    ///
    /// <doc:SafetyOnLinux> lists what Fetch keeps, replaces and, on Linux only, refuses. A field of
    /// `httpAdditionalHeaders` that a request could not send fails every request with
    /// ``FetchError/Code-swift.enum/invalidRequest``.
    /// - Parameters:
    ///   - urlSessionConfiguration: the transport settings to start from.
    ///   - configuration: Fetch's settings; safe defaults when omitted.
    /// - Throws: ``FetchError/Code-swift.enum/unsupportedSetting`` naming each setting of
    ///   either configuration that this platform cannot honour.
    public convenience init(
        urlSessionConfiguration: URLSessionConfiguration, configuration: Configuration = Configuration()
    ) throws {
        try Self.refuseUnsupportedSettings(of: urlSessionConfiguration, configuration)
        // Were `copy()` ever not a URLSessionConfiguration, the settings would go to the caller's rather than be lost.
        let copy = urlSessionConfiguration.copy() as? URLSessionConfiguration ?? urlSessionConfiguration
        self.init(configuration: configuration, tasksInFlight: .process, base: copy)
    }

    /// Checks the fields URLSession sends as written; throws ``FetchError/Code-swift.enum/invalidRequest``.
    static func validateAdditionalHeaders(of settings: URLSessionConfiguration) throws {
        for (name, value) in settings.httpAdditionalHeaders ?? [:] {
            guard let name = name as? String, let value = value as? String else {
                throw FetchError(
                    .invalidRequest,
                    reason: "URLSessionConfiguration.httpAdditionalHeaders holds \(name): \(value), which is not text")
            }
            do {
                try HeaderRules.validate(name: name, value: value)
            } catch var error as FetchError {
                error.reason += " (in URLSessionConfiguration.httpAdditionalHeaders)"
                throw error
            }
        }
    }
}
