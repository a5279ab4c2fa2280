extension Session {
    /// Makes a session over a copy of your own `URLSessionConfiguration`, with Fetch's safety
    /// settings applied over it.
    ///
    /// What you set there is kept: `protocolClasses`, `httpAdditionalHeaders` (each checked
    /// like a request's own: a name that is not a token, a value with CR, LF or NUL, or
    /// `Content-Length`, `Host`, `Transfer-Encoding`, `Connection` fails every request with
    /// ``FetchError/Code-swift.enum/invalidRequest``), and the other transport settings the
    /// platform honours. What Fetch owns is set over it, from `configuration`:
    ///
    /// - storage: `httpCookieStorage` and `urlCache` become ``Configuration-swift.struct/cookieStorage``
    ///   and ``Configuration-swift.struct/urlCache`` (none by default, whatever yours held),
    ///   cookies are sent and accepted only with a store, by Fetch's own rules (URLSession's
    ///   cookie handling is off), and `urlCredentialStorage` is `nil`;
    /// - `requestCachePolicy` follows that cache: it reloads when there is none;
    /// - `timeoutIntervalForRequest` is ``Configuration-swift.struct/idleTimeout`` and
    ///   `timeoutIntervalForResource` seven days (Fetch enforces its own deadline);
    /// - `httpMaximumConnectionsPerHost` is ``Configuration-swift.struct/maximumConnectionsPerHost``;
    /// - redirects, header validation, deadlines and body limits are Fetch's as for any session.
    ///
    /// A setting the platform would accept and then ignore is refused. On Linux,
    /// FoundationNetworking (Swift 6.3) reads none of these, so each one set to anything but its
    /// default throws:
    ///
    /// | setting | refused on Linux when | what to do instead |
    /// |---|---|---|
    /// | `connectionProxyDictionary` | not empty | `http_proxy`, `https_proxy`, `no_proxy` in the environment |
    /// | `allowsCellularAccess` | `false` | nothing: no link is known to be cellular |
    /// | `isDiscretionary` | `true` | requests start at once |
    /// | `networkServiceType` | not `.default` | |
    /// | `httpShouldUsePipelining` | `true` | libcurl has no HTTP/1.1 pipelining |
    /// | `shouldUseExtendedBackgroundIdleMode` | `true` | |
    /// | ``Configuration-swift.struct/urlCache`` | set | the caching layer, `Session().caching()` |
    ///
    /// `waitsForConnectivity`, `multipathServiceType` and the TLS versions do not exist there
    /// (they do not compile), and no server-trust challenge is ever delivered (see
    /// <doc:SafetyOnLinux>). Apple platforms honour every setting; nothing is refused there.
    ///
    /// ```swift
    /// let settings = URLSessionConfiguration.ephemeral
    /// settings.httpAdditionalHeaders = ["X-Client": "ios-4.2"]
    /// let session = try Session(urlSessionConfiguration: settings)
    /// ```
    ///
    /// Your configuration object is copied, never changed.
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

    /// Checks the header fields a `URLSessionConfiguration` adds to every request, which
    /// URLSession puts on the wire as written.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` naming the first field that
    ///   ``HeaderRules`` refuses, or one whose name or value is not text.
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
