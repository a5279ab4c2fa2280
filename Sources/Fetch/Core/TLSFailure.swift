/// Why a TLS handshake failed, in words a person can act on.
///
/// FoundationNetworking on Linux reports every TLS failure as `URLError` -1 with libcurl's
/// message (it maps none to a code of its own), so the failure is recognised from that
/// message; on Apple platforms, from the `URLError` code.
struct TLSFailure: Equatable {
    /// The phrases of libcurl's messages that name this failure, lowercased.
    let phrases: [String]
    /// The `URLError` codes an Apple platform names it with.
    let codes: [URLError.Code]
    /// What went wrong, and for an untrusted certificate what to do about it; empty for ``other``.
    let problem: String

    /// What went wrong, for an error's reason.
    var reason: String { problem.isEmpty ? "TLS failed" : "TLS failed: " + problem }

    /// Any other TLS failure: a message that names SSL or TLS and nothing more specific.
    static let other = TLSFailure(phrases: ["ssl", "tls"], codes: [.secureConnectionFailed], problem: "")

    /// Every failure, the first whose phrase a message holds winning, ``other`` last.
    private static let all = [
        TLSFailure(
            phrases: ["certificate has expired"], codes: [.serverCertificateHasBadDate],
            problem: "the server's certificate has expired"),
        TLSFailure(
            phrases: ["certificate is not yet valid"], codes: [.serverCertificateNotYetValid],
            problem: "the server's certificate is not valid yet (is a clock wrong?)"),
        TLSFailure(
            phrases: [
                "self-signed certificate", "self signed certificate", "issuer certificate",
                "unable to verify the first certificate", "certificate signature failure",
            ],
            codes: [.serverCertificateUntrusted, .serverCertificateHasUnknownRoot],
            problem: "the server's certificate is not trusted (self-signed, or signed by a CA that is not in the "
                + "system trust store); to trust a private CA, add it to the system trust store "
                + "(update-ca-certificates)"),
        TLSFailure(
            phrases: ["does not match target host name", "no alternative certificate subject name"], codes: [],
            problem: "the server's certificate is for another host name"),
        TLSFailure(
            phrases: ["alert certificate required"], codes: [.clientCertificateRequired, .clientCertificateRejected],
            problem: "the server requires a client certificate"),
        // TLS 1.2's answer to a missing client certificate, and to a client that shares no
        // version or cipher with the server.
        TLSFailure(
            phrases: ["alert handshake failure"], codes: [],
            problem: "the server refused the handshake (it requires a client certificate, or shares no TLS "
                + "version or cipher with this client)"),
        TLSFailure(
            phrases: ["wrong version number", "packet length too long", "unknown protocol"], codes: [],
            problem: "the server does not speak TLS on that port (plain HTTP?)"),
        other,
    ]

    /// The TLS failure `error` reports, or `nil` when it is not about TLS. On Linux a TLS
    /// failure is -1 with libcurl's message; an alert that came with a reset is -1005, whose
    /// message then names the alert (any other reset of an https connection stays a lost
    /// connection, which may be retried). On Apple platforms a TLS failure has a code of its own.
    static func reported(by error: URLError) -> TLSFailure? {
        switch error.code {
        case .unknown, .networkConnectionLost:
            let text = error.localizedDescription.lowercased()
            let failure = all.first { failure in failure.phrases.contains { text.contains($0) } }
            return error.code == .unknown || failure != .other ? failure : nil
        default:
            return all.first { $0.codes.contains(error.code) }
        }
    }
}
