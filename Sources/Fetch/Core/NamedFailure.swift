/// A failure URLSession reports without a code of its own, named in words a person can act on.
/// FoundationNetworking reports every TLS failure, and a response it cannot read, as `URLError` -1
/// with libcurl's message, so it is recognised from that message; on Apple platforms, by its code.
struct NamedFailure: Equatable {
    let code: FetchError.Code
    /// The phrases of libcurl's messages that name this failure, lowercased.
    let phrases: [String]
    /// The `URLError` codes an Apple platform names it with.
    let codes: [URLError.Code]
    /// What went wrong, and what to do about it.
    let reason: String

    private static func tls(_ phrases: [String], _ codes: [URLError.Code], _ problem: String) -> NamedFailure {
        NamedFailure(code: .tls, phrases: phrases, codes: codes, reason: "TLS failed: " + problem)
    }

    static let otherTLS = NamedFailure(
        code: .tls, phrases: ["ssl", "tls"], codes: [.secureConnectionFailed], reason: "TLS failed")

    /// Every failure, the first whose phrase a message holds winning, ``otherTLS`` last.
    private static let all = [
        tls(["certificate has expired"], [.serverCertificateHasBadDate], "the server's certificate has expired"),
        tls(
            ["certificate is not yet valid"], [.serverCertificateNotYetValid],
            "the server's certificate is not valid yet (is a clock wrong?)"),
        tls(
            [
                "self-signed certificate", "self signed certificate", "issuer certificate",
                "unable to verify the first certificate", "certificate signature failure",
            ],
            [.serverCertificateUntrusted, .serverCertificateHasUnknownRoot],
            "the server's certificate is not trusted (self-signed, or signed by a CA that is not in the "
                + "system trust store); to trust a private CA, add it to the system trust store "
                + "(update-ca-certificates)"),
        tls(
            ["does not match target host name", "no alternative certificate subject name"], [],
            "the server's certificate is for another host name"),
        tls(
            ["alert certificate required"], [.clientCertificateRequired, .clientCertificateRejected],
            "the server requires a client certificate"),
        tls(
            ["alert handshake failure"], [],
            "the server refused the handshake (it requires a client certificate, or shares no TLS "
                + "version or cipher with this client)"),
        tls(
            ["wrong version number", "packet length too long", "unknown protocol"], [],
            "the server does not speak TLS on that port (plain HTTP?)"),
        NamedFailure(
            code: .badServerResponse, phrases: ["failed writing header"], codes: [],
            reason: "the response has a header line FoundationNetworking on Linux cannot read: a byte that is "
                + "not UTF-8 (such as a Latin-1 é in a value or in a Set-Cookie) or a line that ends in LF alone; "
                + "no client setting lets it through, so the server must send its headers in UTF-8 (ASCII, or "
                + "percent-encoded values) with lines that end in CR LF"),
        NamedFailure(
            code: .badServerResponse, phrases: ["nul byte in header"], codes: [],
            reason: "the response has a NUL byte in a header, which libcurl refuses; the server must not send one"),
        NamedFailure(
            code: .badServerResponse, phrases: ["unrecognized content encoding"], codes: [],
            reason: "the response's Content-Encoding is one libcurl cannot decode (its message lists those it can); "
                + "libcurl decodes every response whatever the request's Accept-Encoding says, so the server must "
                + "send the body unencoded or in one of those"),
        NamedFailure(
            code: .connectionLost, phrases: ["transfer closed"], codes: [],
            reason: "the connection closed before the body was complete"),
        otherTLS,
    ]

    /// The failure `error` reports, or `nil`. A TLS alert that came with a reset is -1005 naming the
    /// alert; any other reset of an https connection stays a lost connection, which may be retried.
    static func reported(by error: URLError) -> NamedFailure? {
        switch error.code {
        case .unknown, .networkConnectionLost:
            let text = error.localizedDescription.lowercased()
            let failure = all.first { failure in failure.phrases.contains { text.contains($0) } }
            return error.code == .unknown || failure?.code == .tls && failure != otherTLS ? failure : nil
        default:
            return all.first { $0.codes.contains(error.code) }
        }
    }
}
