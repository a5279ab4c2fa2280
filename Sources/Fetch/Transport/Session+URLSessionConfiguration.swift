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
        // `copy()` of a URLSessionConfiguration is one on every platform; were it not, the
        // settings would be applied to the caller's object rather than lost.
        let copy = urlSessionConfiguration.copy() as? URLSessionConfiguration ?? urlSessionConfiguration
        self.init(configuration: configuration, tasksInFlight: .process, base: copy)
    }

    /// Checks the header fields a `URLSessionConfiguration` adds to every request, which URLSession sends as written.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` naming the first field that ``HeaderRules`` refuses,
    ///   or one whose name or value is not text.
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
