import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// The `URLRequest` this request becomes: URL with encoded query items, method, headers,
    /// body with its content type, then ``adjust(_:)``.
    ///
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a header that cannot be
    ///   sent as written, ``FetchError/Code-swift.enum/encoding`` when the body fails to
    ///   encode, or whatever `adjust` throws.
    public func makeURLRequest() throws -> URLRequest {
        let method = self.method
        let url: URL
        do {
            url = try QueryEncoder.appending(queryItems, to: self.url)
        } catch let error as FetchError {
            throw error.naming(method: method, url: self.url)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = method.rawValue
        do {
            for field in headers {
                try HeaderRules.validate(name: field.name, value: field.value)
                urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
            }
            if let body {
                // A streamed body (a file, a form with file parts) is sent by the performer
                // from disk; it is never read into memory here.
                if !body.isStreamed { urlRequest.httpBody = try body.encoded() }
                if let contentType = body.contentType, !headers.contains("Content-Type") {
                    urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
                }
            }
        } catch let error as FetchError {
            throw error.naming(method: method, url: url)
        }
        try adjust(&urlRequest)
        return urlRequest
    }
}
