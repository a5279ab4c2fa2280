import Foundation
import Testing
@testable import Fetch

struct FileBodyTests {
    let url = URL(string: "https://example.com/upload")!

    @Test func fileBodyIsNotReadWhenTheRequestIsBuilt() throws {
        // Given a POST whose body is a 5-byte file
        let folder = try TemporaryFolder()
        let file = try folder.write("hello", to: "h.txt")
        let request = BasicRequest(url: url, method: .post, body: .file(file, contentType: "text/plain"))
        // When the URLRequest is built
        let urlRequest = try request.makeURLRequest()
        // Then it has no body in memory but the content type, and the body knows its file and size
        #expect(urlRequest.httpBody == nil)
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(request.body?.isStreamed == true)
        #expect(request.body?.fileURL == file)
        #expect(request.body?.knownLength == 5)
        #expect(try request.body?.encoded() == Data("hello".utf8))
    }

    @Test func missingFileFailsToEncodeWithAFileError() {
        // Given a body naming a missing file
        let body = RequestBody.file(URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)"))
        // When it is read
        // Then it fails with a file error and its length is unknown
        #expect { try body.encoded() } throws: { ($0 as? FetchError)?.code == .file }
        #expect(body.knownLength == nil)
    }

    @Test func formWithFilePartsIsStreamedAndMeasuredUpFront() throws {
        // Given a form with a text field and a file part
        let folder = try TemporaryFolder()
        let file = try folder.write(String(repeating: "z", count: 300), to: "z.txt")
        var form = MultipartForm(boundary: "XyZ")
        form.append("v", name: "k")
        form.append(contentsOf: file, name: "f", contentType: "text/plain")
        // When it becomes a body
        let body = RequestBody.multipart(form)
        let encoded = try form.encoded()
        // Then it is streamed, its length is known before encoding and matches the encoding
        #expect(body.isStreamed)
        #expect(form.contentLength == Int64(encoded.count))
        #expect(body.knownLength == Int64(encoded.count))
        let text = String(decoding: encoded, as: UTF8.self)
        let filePart =
            "Content-Disposition: form-data; name=\"f\"; filename=\"z.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nzzz"
        #expect(text.contains(filePart))
        #expect(text.hasSuffix("--XyZ--\r\n"))
    }

    @Test func formWithoutFilePartsStaysInMemory() throws {
        // Given a form of text fields only
        var form = MultipartForm(boundary: "b")
        form.append("1", name: "a")
        // When it is a request body
        let request = BasicRequest(url: url, method: .post, body: .multipart(form))
        // Then the URLRequest carries it as before
        #expect(request.body?.isStreamed == false)
        #expect(try request.makeURLRequest().httpBody == form.encoded())
    }

    @Test func chunkedEncodingMatchesTheWholeEncoding() throws {
        // Given a form with a 1,000-byte file part
        let folder = try TemporaryFolder()
        let file = try folder.write(String(repeating: "0123456789", count: 100), to: "d.bin")
        var form = MultipartForm(boundary: "bb")
        form.append(contentsOf: file, name: "d")
        // When it is encoded in chunks of 7 bytes
        var pieces = Data()
        try form.encode(chunkSize: 7) { pieces.append($0) }
        // Then the bytes are the same as the whole encoding
        #expect(pieces == (try form.encoded()))
    }

    @Test func boundaryInsideAFileIsFoundAcrossChunkEdges() throws {
        // Given a file that holds the form's boundary, read in chunks that split it
        let folder = try TemporaryFolder()
        let file = try folder.write("aaaa--edge--bbbb", to: "e.txt")
        var form = MultipartForm(boundary: "edge")
        form.append(contentsOf: file, name: "e")
        // When it is encoded in chunks of 5 bytes
        // Then encoding fails with an encoding error
        #expect { try form.encode(chunkSize: 5) { _ in } } throws: { ($0 as? FetchError)?.code == .encoding }
    }

    @Test func writingTheFormToAFileStopsWhenCancelled() throws {
        // Given a form with a file part and a target file
        let folder = try TemporaryFolder()
        var form = MultipartForm()
        form.append(contentsOf: try folder.write("content", to: "c.txt"), name: "c")
        let target = folder.file("form.multipart")
        // When it is written while cancelled
        // Then it fails as cancelled and leaves no file
        #expect { try form.writeEncoded(to: target, isCancelled: { true }) } throws: {
            ($0 as? FetchError)?.code == .cancelled
        }
        #expect(try folder.contents() == ["c.txt"])
    }
}
