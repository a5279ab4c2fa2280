import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

/// TLS failures become ``FetchError/Code-swift.enum/tls`` with a reason a person can act on:
/// on Linux recognised from libcurl's message in URLError -1, on Apple platforms from the code.
struct TLSFailureMappingTests {
    /// A message libcurl 7.88 with OpenSSL 3 gives for one failure, and what the reason must say.
    struct Message: CustomTestStringConvertible, Sendable {
        let text: String
        let says: String
        let testDescription: String
    }

    static let messages = [
        Message(
            text: "SSL certificate problem: unable to get local issuer certificate",
            says: "add it to the system trust store", testDescription: "a CA nobody trusts"),
        Message(
            text: "SSL certificate problem: self-signed certificate", says: "add it to the system trust store",
            testDescription: "self-signed"),
        Message(
            text: "SSL certificate problem: self signed certificate in certificate chain",
            says: "add it to the system trust store", testDescription: "self-signed root in the chain (OpenSSL 1.1)"),
        Message(
            text: "SSL certificate problem: certificate has expired", says: "has expired",
            testDescription: "expired"),
        Message(
            text: "SSL certificate problem: certificate is not yet valid", says: "not valid yet",
            testDescription: "not yet valid"),
        Message(
            text: "SSL: no alternative certificate subject name matches target host name '127.0.0.1'",
            says: "for another host name", testDescription: "host name mismatch"),
        Message(
            text: "SSL: certificate subject name 'a.example' does not match target host name 'b.example'",
            says: "for another host name", testDescription: "host name mismatch, no alternative names"),
        Message(
            text: "OpenSSL SSL_read: OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate "
                + "required, errno 0", says: "requires a client certificate",
            testDescription: "client certificate required"),
        Message(
            text: "OpenSSL/3.0.19: error:0A000410:SSL routines::sslv3 alert handshake failure",
            says: "requires a client certificate, or shares no TLS version", testDescription: "handshake refused"),
        Message(
            text: "error:0A00010B:SSL routines::wrong version number", says: "does not speak TLS on that port",
            testDescription: "not TLS on that port"),
        Message(text: "SSL connect error", says: "TLS failed (SSL connect error)", testDescription: "any other"),
    ]

    @Test(arguments: messages)
    func libcurlsMessageInAMinusOneIsATLSFailure(message: Message) {
        // Given URLError -1 with libcurl's message, as FoundationNetworking reports it
        let error = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message.text])
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .get, url: URL(string: "https://127.0.0.1:8443/")!)
        // Then it is tls, says why in plain words and keeps libcurl's message
        #expect(mapped.code == .tls)
        #expect(mapped.reason.contains(message.says))
        #expect(mapped.reason.contains(message.text))
        #expect(mapped.description.hasPrefix("GET https://127.0.0.1:8443/: TLS failed"))
    }

    @Test(arguments: [
        (-1202, "not trusted"), (-1203, "not trusted"),  // untrusted, unknown root
        (-1201, "has expired"), (-1204, "not valid yet"),
        (-1205, "requires a client certificate"), (-1206, "requires a client certificate"),
        (-1200, "TLS failed"),  // secure connection failed
    ])
    func applePlatformCodesAreTLSFailures(rawCode: Int, says: String) throws {
        // Given a TLS code as URLSession on Apple platforms reports it (never on Linux)
        let error = URLError(try #require(URLError.Code(rawValue: rawCode)))
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .get, url: URL(string: "https://example.com/")!)
        // Then it is tls with the same plain reason as on Linux
        #expect(mapped.code == .tls)
        #expect(mapped.reason.contains(says))
    }

    @Test func aMinusOneThatIsNotAboutTLSStaysATransportError() {
        // Given a -1 whose message says nothing of TLS
        let error = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "Failure when receiving data"])
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .get, url: URL(string: "https://example.com/")!)
        // Then it is not taken for a TLS failure
        #expect(mapped.code == .transport)
    }

    @Test func aTLSFailureIsNotRetried() {
        // Given a transport that fails with libcurl's untrusted-certificate message, then would succeed
        let failure = FetchError.mapping(
            URLError(
                .unknown, userInfo: [NSLocalizedDescriptionKey: "SSL certificate problem: self-signed certificate"]),
            method: .get, url: URL(string: "https://example.com/")!)
        let spy = SpyPerformer([.failure(failure), .status(200)])
        // When a GET is sent through the default exponential retry
        let result = performNow(
            spy.retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler()), get("https://example.com/"))
        // Then the TLS failure is delivered after one attempt
        #expect(outcome(result) == "tls")
        #expect(spy.calls.count == 1)
    }
}

extension TLSFailureMappingTests {
    @Test func anAlertThatCameWithAResetIsATLSFailure() {
        // Given -1005, a reset, whose message names the server's alert
        let message =
            "OpenSSL SSL_read: OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 104"
        let error = URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: message])
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .get, url: URL(string: "https://example.com/")!)
        // Then it is the TLS failure the alert names
        #expect(mapped.code == .tls)
        #expect(mapped.reason.contains("requires a client certificate"))
    }

    @Test func anyOtherResetOfAnHTTPSConnectionIsALostConnection() {
        // Given -1005 whose message only says OpenSSL saw a reset
        let message = "OpenSSL SSL_read: Connection reset by peer, errno 104"
        let error = URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: message])
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .get, url: URL(string: "https://example.com/")!)
        // Then it stays a lost connection, which a retry policy may retry
        #expect(mapped.code == .connectionLost)
    }
}
