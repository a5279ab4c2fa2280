/// Why a TLS handshake failed, in words a person can act on.
///
/// FoundationNetworking on Linux reports every TLS failure as `URLError` -1 with libcurl's
/// message (it maps none to a code of its own), so the failure is recognised from that
/// message; on Apple platforms, from the `URLError` code.
enum TLSFailure: Equatable {
    /// The certificate is self-signed or signed by a CA that is not trusted.
    case untrusted
    /// The certificate has expired.
    case expired
    /// The certificate is not valid yet.
    case notYetValid
    /// The certificate names another host.
    case hostMismatch
    /// The server requires a client certificate.
    case clientCertificateRequired
    /// The server refused the handshake: TLS 1.2's answer to a missing client certificate,
    /// and to a client that shares no version or cipher with it.
    case handshakeRefused
    /// The server does not speak TLS on that port.
    case notTLS
    /// Any other TLS failure.
    case other

    /// The failure libcurl's `message` describes, or `nil` when it is not about TLS.
    init?(libcurlMessage message: String) {
        let text = message.lowercased()
        let match = Self.libcurlPhrases.first { _, phrases in phrases.contains { text.contains($0) } }
        guard let (failure, _) = match else { return nil }
        self = failure
    }

    /// The phrases of libcurl's messages that name each failure, the first match winning.
    private static let libcurlPhrases: [(TLSFailure, [String])] = [
        (.expired, ["certificate has expired"]),
        (.notYetValid, ["certificate is not yet valid"]),
        (
            .untrusted,
            [
                "self-signed certificate", "self signed certificate", "issuer certificate",
                "unable to verify the first certificate", "certificate signature failure",
            ]
        ),
        (.hostMismatch, ["does not match target host name", "no alternative certificate subject name"]),
        (.clientCertificateRequired, ["alert certificate required"]),
        (.handshakeRefused, ["alert handshake failure"]),
        (.notTLS, ["wrong version number", "packet length too long", "unknown protocol"]),
        (.other, ["ssl", "tls"]),
    ]

    /// The failure an Apple platform's `code` stands for, or `nil` when it is not about TLS.
    init?(code: URLError.Code) {
        switch code {
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot: self = .untrusted
        case .serverCertificateHasBadDate: self = .expired
        case .serverCertificateNotYetValid: self = .notYetValid
        case .clientCertificateRequired, .clientCertificateRejected: self = .clientCertificateRequired
        case .secureConnectionFailed: self = .other
        default: return nil
        }
    }

    /// What went wrong, and for an untrusted certificate what to do about it.
    var reason: String {
        switch self {
        case .untrusted:
            "TLS failed: the server's certificate is not trusted (self-signed, or signed by a CA "
                + "that is not in the system trust store); to trust a private CA, add it to the system "
                + "trust store (update-ca-certificates)"
        case .expired: "TLS failed: the server's certificate has expired"
        case .notYetValid: "TLS failed: the server's certificate is not valid yet (is a clock wrong?)"
        case .hostMismatch: "TLS failed: the server's certificate is for another host name"
        case .clientCertificateRequired: "TLS failed: the server requires a client certificate"
        case .handshakeRefused:
            "TLS failed: the server refused the handshake (it requires a client certificate, or "
                + "shares no TLS version or cipher with this client)"
        case .notTLS: "TLS failed: the server does not speak TLS on that port (plain HTTP?)"
        case .other: "TLS failed"
        }
    }
}
