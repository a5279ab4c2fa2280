extension URLRequest {
    /// Asks for the rest of a resumable partial download kept for `destination` (`Range`
    /// and `If-Range`). A request that sets its own `Range` or `If-Range` is left as it is.
    mutating func askForRest(of destination: DownloadDestination) {
        guard let url = destination.namedURL,
            value(forHTTPHeaderField: "Range") == nil, value(forHTTPHeaderField: "If-Range") == nil,
            let point = ResumePoint(PartialFiles(finalURL: url), for: self.url)
        else { return }
        setValue(point.range, forHTTPHeaderField: "Range")
        setValue(point.validator, forHTTPHeaderField: "If-Range")
    }
}

extension DownloadDestination {
    /// The file a download ends in, when its name is known before the download starts.
    var namedURL: URL? {
        switch kind {
        case .file(let url, _), .namedTemporary(let url): return url
        case .temporary: return nil
        }
    }
}
