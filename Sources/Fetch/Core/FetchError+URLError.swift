extension FetchError {
    /// Maps an error from URLSession to a named ``FetchError`` that carries the request; one with
    /// no more specific code becomes ``Code-swift.enum/transport`` with the original attached.
    public static func mapping(_ error: any Error, method: HTTPMethod?, url: URL?) -> FetchError {
        if let fetchError = error as? FetchError { return fetchError.naming(method: method, url: url) }
        guard let urlError = error as? URLError else {
            return FetchError(.transport, reason: "\(error)", method: method, url: url, underlying: error)
        }
        let (code, reason) = classify(urlError)
        return FetchError(code, reason: reason, method: method, url: url, underlying: urlError)
    }

    private static func classify(_ error: URLError) -> (Code, String) {
        let detail = error.localizedDescription
        if let failure = NamedFailure.reported(by: error) { return (failure.code, "\(failure.reason) (\(detail))") }
        switch error.code {
        case .cancelled: return (.cancelled, "cancelled")
        case .timedOut: return (.timedOut, "timed out waiting for the server")
        case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            return (.notConnected, "not connected to a network")
        case .cannotConnectToHost: return (.cannotConnect, "could not connect to the server (connection refused)")
        case .cannotFindHost, .dnsLookupFailed: return (.hostNotFound, "host not found")
        case .networkConnectionLost: return (.connectionLost, "the connection was lost")
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
            .zeroByteResource:
            return (.badServerResponse, "bad server response: \(detail)")
        case .unsupportedURL:
            // libcurl reports a reply that is not HTTP ("Received HTTP/0.9") as an unsupported URL.
            return (.badServerResponse, "the server's reply is not HTTP: \(detail)")
        case .httpTooManyRedirects: return (.tooManyRedirects, "too many redirects")
        case .redirectToNonExistentLocation: return (.redirectRefused, "redirect without a usable Location")
        case .fileDoesNotExist, .noPermissionsToReadFile, .cannotOpenFile, .fileIsDirectory:
            // An upload's file that went away or changed between the check and the send.
            return (.file, "the body's file could not be read: \(detail)")
        case .badURL: return (.invalidRequest, "invalid URL")
        case .dataLengthExceedsMaximum: return (.invalidRequest, "the request cannot be sent: \(detail)")
        case .resourceUnavailable: return (.badServerResponse, "resource unavailable: \(detail)")
        default:
            return (.transport, "transfer failed (URLError \(error.code.rawValue)): \(detail)")
        }
    }
}
