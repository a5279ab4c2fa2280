import Foundation
import Testing
@testable import Fetch

/// The rules of resuming a download, as pure functions over headers and a partial file.
struct ResumeRulesTests {
    static let url = URL(string: "https://example.com/big.bin")!

    // MARK: Content-Range

    @Test(arguments: [
        ("bytes 0-99/1000", ContentRange?.some(ContentRange(first: 0, last: 99, length: 1000))),
        ("bytes 5-9/*", ContentRange(first: 5, last: 9, length: nil)),
        ("bytes */1000", ContentRange(first: nil, last: nil, length: 1000)),
        ("BYTES 1-1/2", ContentRange(first: 1, last: 1, length: 2)),
    ])
    func aWellFormedContentRangeReads(text: String, expected: ContentRange?) {
        // Given a byte range as a server sends it; When it is read; Then it has its parts
        #expect(ContentRange(text) == expected)
    }

    @Test(arguments: [
        "bytes 9-5/10", "bytes 0-10/10", "items 0-1/2", "bytes -1-2/3", "bytes 1-2", "bytes */*",
        "bytes 0-99/1000x", "bytes +1-2/3", "", "bytes 0-/10",
    ])
    func aMalformedContentRangeIsRefused(text: String) {
        // Given a Content-Range that breaks RFC 9110; When it is read; Then it is refused
        #expect(ContentRange(text) == nil)
    }

    // MARK: Validators

    @Test func anUnquotedETagCountsAsStrong() throws {
        // Given a 200 whose tag lacks its quotes, as httpbin sends them
        // When its record is made; Then the tag is the validator, as the server wrote it
        #expect(PartialRecord(url: Self.url, headers: ["ETag": "range1024"], length: 1024)?.validator == "range1024")
    }

    @Test func aStrongETagIsKept() throws {
        // Given a 200 with a strong entity tag and a length
        // When its record is made
        let record = try #require(PartialRecord(url: Self.url, headers: ["ETag": "\"v1\""], length: 1000))
        // Then the tag is the validator
        #expect(record.validator == "\"v1\"")
        #expect(record.length == 1000)
        #expect(record.url == Self.url.absoluteString)
    }

    @Test(arguments: [
        ["ETag": "W/\"v1\""] as HTTPHeaders,  // weak: never in If-Range
        [
            "ETag": "W/\"v1\"", "Last-Modified": "Tue, 24 Nov 2026 10:00:00 GMT",
            "Date": "Tue, 24 Nov 2026 12:00:00 GMT",
        ],
        ["Last-Modified": "Tue, 24 Nov 2026 11:59:30 GMT", "Date": "Tue, 24 Nov 2026 12:00:00 GMT"],  // 30 s: weak
        ["Last-Modified": "Tue, 24 Nov 2026 10:00:00 GMT"],  // no Date to judge it by
        ["ETag": "\"v1\"", "Content-Encoding": "gzip"],  // a range would not match the file
        [:],
    ])
    func aResponseWithoutAStrongValidatorCannotBeResumed(headers: HTTPHeaders) {
        // Given a response without a usable validator; When its record is made; Then there is none
        #expect(PartialRecord(url: Self.url, headers: headers, length: 1000) == nil)
    }

    @Test func aLastModifiedAMinuteBeforeTheDateIsStrongWithoutAnETag() throws {
        // Given a 200 without an ETag whose Last-Modified is two minutes before its Date
        let headers: HTTPHeaders = [
            "Last-Modified": "Tue, 24 Nov 2026 11:58:00 GMT", "Date": "Tue, 24 Nov 2026 12:00:00 GMT",
            "Content-Encoding": "identity",
        ]
        // When its record is made
        let record = try #require(PartialRecord(url: Self.url, headers: headers, length: nil))
        // Then the date is the validator
        #expect(record.validator == "Tue, 24 Nov 2026 11:58:00 GMT")
        #expect(record.etag == nil)
    }

    // MARK: Where a download resumes

    @Test func aPartialFileResumesAtItsSize() throws {
        // Given 400 bytes of a 1000-byte body with its record
        let folder = try TemporaryFolder()
        let files = try Self.partial(400, of: 1000, in: folder)
        // When the resume point is read for the same URL
        let point = try #require(ResumePoint(files, for: Self.url))
        // Then it asks for the rest, guarded by the tag
        #expect(point.offset == 400)
        #expect(point.range == "bytes=400-")
        #expect(point.validator == "\"v1\"")
    }

    @Test func aWholePartialFileAsksForItsLastByteAgain() throws {
        // Given a partial file that already holds all 1000 bytes
        let folder = try TemporaryFolder()
        let files = try Self.partial(1000, of: 1000, in: folder)
        // When the resume point is read
        let point = try #require(ResumePoint(files, for: Self.url))
        // Then it asks for the last byte, which a current resource answers with a 206
        #expect(point.range == "bytes=999-")
        #expect(point.size == 1000)
    }

    @Test func aPartialFileIsNotResumedForAnotherURLOrWhenLongerThanTheBodyOrWithoutARecord() throws {
        // Given partial files that do not fit the request
        let folder = try TemporaryFolder()
        let files = try Self.partial(400, of: 1000, in: folder)
        // Then another URL does not resume it
        #expect(ResumePoint(files, for: URL(string: "https://example.com/other.bin")!) == nil)
        // Nor a file longer than the body it claims to be part of
        let longer = try Self.partial(1001, of: 1000, in: folder, named: "long.bin")
        #expect(ResumePoint(longer, for: Self.url) == nil)
        // Nor one whose record is gone or unreadable
        try Data("{".utf8).write(to: files.recordURL)
        #expect(ResumePoint(files, for: Self.url) == nil)
    }

    // MARK: What the answer means

    @Test func aDownloadThatAskedForEverythingWritesA2xxAndKeepsAnythingElseOut() throws {
        // Given a request that asked for the whole body; When answered; Then 2xx is a body, others are not
        #expect(try ResumeAnswer.decide(status: 200, headers: [:], contentLength: 10, asked: nil) == .fresh(length: 10))
        #expect(
            try ResumeAnswer.decide(
                status: 206, headers: ["Content-Range": "bytes 0-9/20"], contentLength: 10,
                asked: nil) == .fresh(length: 10))
        #expect(try ResumeAnswer.decide(status: 404, headers: [:], contentLength: 10, asked: nil) == .notABody)
    }

    @Test func aResumedDownloadAppendsTheMatching206() throws {
        // Given a request for bytes 400- of 1000
        let folder = try TemporaryFolder()
        let point = try #require(ResumePoint(try Self.partial(400, of: 1000, in: folder), for: Self.url))
        // When the server sends that range (with or without the total, with the same tag)
        let exact = try ResumeAnswer.decide(
            status: 206, headers: ["Content-Range": "bytes 400-999/1000", "ETag": "\"v1\""],
            contentLength: 600, asked: point)
        let noTotal = try ResumeAnswer.decide(
            status: 206, headers: ["Content-Range": "bytes 400-999/*"],
            contentLength: nil, asked: point)
        // Then the rest is appended at 400, out of 1000
        #expect(exact == .append(offset: 400, length: 1000))
        #expect(noTotal == .append(offset: 400, length: 1000))
    }

    @Test(arguments: [
        ["Content-Range": "bytes 0-999/1000"] as HTTPHeaders,  // starts elsewhere
        ["Content-Range": "bytes 401-999/1000"],
        ["Content-Range": "bytes 400-999"],  // malformed
        ["Content-Type": "multipart/byteranges; boundary=x"],  // no Content-Range at all
    ])
    func aResumed206ThatDoesNotMatchTheRequestIsANamedError(headers: HTTPHeaders) throws {
        // Given a request for bytes 400- of 1000
        let folder = try TemporaryFolder()
        let point = try #require(ResumePoint(try Self.partial(400, of: 1000, in: folder), for: Self.url))
        // When a 206 comes whose range does not start there; Then it is badServerResponse
        #expect {
            _ = try ResumeAnswer.decide(status: 206, headers: headers, contentLength: nil, asked: point)
        } throws: { ($0 as? FetchError)?.code == .badServerResponse }
    }

    @Test func aResumed206WhoseLengthDisagreesWithItsContentRangeIsANamedError() throws {
        // Given a request for bytes 400- of 1000
        let folder = try TemporaryFolder()
        let point = try #require(ResumePoint(try Self.partial(400, of: 1000, in: folder), for: Self.url))
        // When the 206 announces 600 bytes in its range but 10 in its Content-Length; Then it fails
        #expect {
            _ = try ResumeAnswer.decide(
                status: 206, headers: ["Content-Range": "bytes 400-999/1000"], contentLength: 10,
                asked: point)
        } throws: { ($0 as? FetchError)?.code == .badServerResponse }
    }

    @Test(
        arguments: [
            (206, ["Content-Range": "bytes 400-999/1000", "ETag": "\"v2\""]),  // another version
            (206, ["Content-Range": "bytes 400-999/1000", "Content-Encoding": "gzip"]),  // a compressed range
            (206, ["Content-Range": "bytes 400-1999/2000"]),  // another length
            (416, ["Content-Range": "bytes */1000"]),  // shorter than asked
            (416, [:]),
        ] as [(Int, HTTPHeaders)])
    func aRangeThatCannotContinueTheFileStartsOver(status: Int, headers: HTTPHeaders) throws {
        // Given a request for bytes 400- of 1000
        let folder = try TemporaryFolder()
        let point = try #require(ResumePoint(try Self.partial(400, of: 1000, in: folder), for: Self.url))
        // When the answer cannot continue those bytes; Then the download starts over
        #expect(
            try ResumeAnswer.decide(status: status, headers: headers, contentLength: nil, asked: point) == .startOver)
    }

    @Test func a416ThatNamesThePartialFilesSizeMeansItIsWhole() throws {
        // Given 1000 bytes of a body of unknown length
        let folder = try TemporaryFolder()
        let files = try Self.partial(1000, of: nil, in: folder)
        let point = try #require(ResumePoint(files, for: Self.url))
        #expect(point.range == "bytes=1000-")
        // When the server says there is nothing past byte 1000; Then the file is whole
        #expect(
            try ResumeAnswer.decide(
                status: 416, headers: ["Content-Range": "bytes */1000"], contentLength: 0,
                asked: point) == .whole(length: 1000))
    }

    @Test func aResumedDownloadRestartsOnA200AndLeavesTheFileAloneOnAnError() throws {
        // Given a request for bytes 400- of 1000
        let folder = try TemporaryFolder()
        let point = try #require(ResumePoint(try Self.partial(400, of: 1000, in: folder), for: Self.url))
        // When the server ignores the range, or fails; Then the body starts over, or is not a body
        #expect(
            try ResumeAnswer.decide(status: 200, headers: [:], contentLength: 1000, asked: point)
                == .fresh(length: 1000))
        #expect(try ResumeAnswer.decide(status: 503, headers: [:], contentLength: 5, asked: point) == .notABody)
    }

    /// Writes `size` bytes of a partial download of `length` bytes of ``url`` with the tag
    /// `"v1"`, for the destination `named` in `folder`.
    static func partial(
        _ size: Int, of length: Int64?, in folder: borrowing TemporaryFolder,
        named name: String = "big.bin"
    ) throws -> PartialFiles {
        let files = PartialFiles(finalURL: folder.file(name))
        try Data(repeating: 1, count: size).write(to: files.bytesURL)
        try files.write(PartialRecord(url: url, headers: ["ETag": "\"v1\""], length: length))
        return files
    }
}
