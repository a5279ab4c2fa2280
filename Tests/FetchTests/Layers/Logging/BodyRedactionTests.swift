import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct BodyRedactionTests {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func secretFormFieldsAreHidden() {
        // Given a sign-in form
        let body = Data("user=ada&password=hunter2&Client_Secret=s3&grant_type=password".utf8)

        // When it is redacted as a form
        let shown = text(Redaction.default.body(body, contentType: "application/x-www-form-urlencoded"))

        // Then the secret values are hidden and the rest kept
        #expect(shown == "user=ada&password=<redacted>&Client_Secret=<redacted>&grant_type=password")
    }

    @Test func secretJSONKeysAreHiddenWhateverTheirValue() {
        // Given JSON with secrets at several depths, of several kinds
        let body = Data(
            (#"{"user": "ada", "accessToken": "abc\"d", "nested": {"apiKey": 42, "keys": [1]}, "pin": null, "#
                + #""credentials": {"a": [1, {"b": "}"}]}, "note": "password"}"#).utf8)

        // When it is redacted as JSON
        let shown = text(Redaction.default.body(body, contentType: "application/json; charset=utf-8"))

        // Then each secret value is one replacement string, and the spacing is as sent
        #expect(
            shown
                == #"{"user": "ada", "accessToken": "<redacted>", "nested": {"apiKey": "<redacted>", "keys": [1]}, "#
                + #""pin": "<redacted>", "credentials": "<redacted>", "note": "password"}"#)
    }

    @Test func wordsMatchWholeOrAsLongPartsOnly() {
        // Given names that hold a secret word, and some that only look alike
        let redaction = Redaction.default

        // Then word boundaries and long words decide
        for secret in [
            "password", "PASSWORD", "api_key", "api-key", "apiKey", "user[password]", "newpassword",
            "clientsecret", "refresh_token", "X-Auth",
        ] {
            #expect(redaction.hides(name: secret), "\(secret)")
        }
        for plain in ["monkey", "keyboard", "user", "spin", "author_name", "grant_type"] {
            #expect(!redaction.hides(name: plain), "\(plain)")
        }
    }

    @Test func theListCanBeChangedAndAddedTo() {
        // Given a redaction without "key" and with names of its own
        var redaction = Redaction.default.adding(queryItems: ["sig"], bodyFields: ["IBAN"])
        redaction.secretWords.remove("key")
        let body = Data("key=1&iban=DE00&sig=x&password=p".utf8)

        // When a form is redacted
        let shown = text(redaction.body(body, contentType: nil))

        // Then "key" shows, and the added names are hidden in bodies and query strings
        #expect(shown == "key=1&iban=<redacted>&sig=<redacted>&password=<redacted>")
        #expect(redaction.string(for: URL(string: "https://x/a?iban=1&q=2")!) == "https://x/a?iban=<redacted>&q=2")
        #expect(text(Redaction.none.body(body, contentType: nil)) == "key=1&iban=DE00&sig=x&password=p")
    }

    @Test func bodiesOfOtherTypesAndCutJSONAreHandled() {
        // Given a body that is not a form or JSON, and JSON cut in a secret value
        let plain = Data("password=p".utf8)
        let cut = Data(#"{"token": "abcdef"#.utf8)

        // When they are redacted
        // Then text of another type is left alone, and the cut JSON still hides the secret
        #expect(text(Redaction.default.body(plain, contentType: "text/csv")) == "password=p")
        #expect(text(Redaction.default.body(cut, contentType: nil)) == #"{"token": "<redacted>""#)
        #expect(text(Redaction.default.body(Data(), contentType: nil)).isEmpty)
    }

    @Test func aSecretQueryItemIsHiddenByDefault() {
        // Given a URL with a token in its query
        let url = URL(string: "https://api.example.com/feed?access_token=abc&page=2")!

        // Then the default redaction hides it
        #expect(Redaction.default.string(for: url) == "https://api.example.com/feed?access_token=<redacted>&page=2")
    }

    @Test func logsHideSecretBodiesAtEveryLevel() {
        // Given a logging layer that logs everything, over a spy echoing a token
        let events = Recorder<LogEvent>()
        let spy = SpyPerformer([.json(raw: #"{"access_token":"t0k","user":"ada"}"#)])
        let api = spy.logging(LogConfiguration(options: .all) { events.record($0) })
        let signIn = BasicRequest(
            url: URL(string: "https://api.example.com/session")!, method: .post,
            body: .form(["user": "ada", "password": "hunter2"]))

        // When the form is posted
        _ = performNow(api, signIn)

        // Then neither the password nor the token appears, in the body lines or the cURL
        let message = events.all.map(\.message).joined(separator: "\n")
        #expect(!message.contains("hunter2"))
        #expect(!message.contains("t0k"))
        #expect(
            message.contains("> user=ada&password=<redacted>") || message.contains("> password=<redacted>&user=ada"))
        #expect(message.contains(#"< {"access_token":"<redacted>","user":"ada"}"#))
        #expect(message.contains("--data-binary"))
    }

    @Test func anErrorQuotingABodyHidesItsSecrets() {
        // Given a 400 whose JSON body repeats a secret
        let response = Response(
            status: 400, headers: ["Content-Type": "application/json"], body: Data(#"{"refresh_token":"r1"}"#.utf8))

        // When it becomes an httpStatus error
        let error = FetchError.httpStatus(response)

        // Then its description quotes the body without the secret
        #expect(error.description.contains(#""refresh_token":"<redacted>""#))
        #expect(!error.description.contains("r1"))
    }
}
