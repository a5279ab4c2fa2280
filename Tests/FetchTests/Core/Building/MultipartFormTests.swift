import Foundation
import Testing
import Fetch

struct MultipartFormTests {
    @Test func eachFormGetsARandomBoundary() {
        // Given two forms made the same way
        let first = MultipartForm()
        let second = MultipartForm()
        // When their boundaries are compared
        // Then they differ, and the Content-Type names each
        #expect(first.boundary != second.boundary)
        #expect(first.contentType == "multipart/form-data; boundary=\(first.boundary)")
        #expect(RequestBody.multipart(first).contentType == first.contentType)
    }

    @Test func partsAreEncodedInOrderBetweenBoundaries() throws {
        // Given a text field and a file field with a fixed boundary
        var form = MultipartForm(boundary: "XyZ")
        form.append("Ada", name: "name")
        form.append(Data("PNG".utf8), name: "avatar", fileName: "ada.png", contentType: "image/png")
        // When encoded through a request body
        let text = String(decoding: try RequestBody.multipart(form).encoded(), as: UTF8.self)
        // Then it is RFC 7578 multipart with CRLF line ends and a closing boundary
        #expect(
            text == "--XyZ\r\n"
                + "Content-Disposition: form-data; name=\"name\"\r\n\r\n"
                + "Ada\r\n"
                + "--XyZ\r\n"
                + "Content-Disposition: form-data; name=\"avatar\"; filename=\"ada.png\"\r\n"
                + "Content-Type: image/png\r\n\r\n"
                + "PNG\r\n"
                + "--XyZ--\r\n")
        #expect(form.parts.map(\.name) == ["name", "avatar"])
    }

    @Test func quotesInNamesAreEscaped() throws {
        // Given a field name and file name with quotes and a backslash
        var form = MultipartForm(boundary: "b")
        form.append(MultipartForm.Part(name: #"a"b"#, fileName: #"c\d"#, data: Data()))
        // When encoded
        let text = String(decoding: try form.encoded(), as: UTF8.self)
        // Then they cannot end the quoted parameter early
        #expect(text.contains(#"name="a%22b"; filename="c\\d""#))
    }

    @Test(arguments: [
        MultipartForm.Part(name: "x\r\nContent-Type: text/html", data: Data()),
        MultipartForm.Part(name: "file", fileName: "a\nb.txt", data: Data()),
        MultipartForm.Part(name: "file", contentType: "text/plain\r\nX: 1", data: Data()),
    ])
    func lineBreaksInNamesOrTypesAreRefused(part: MultipartForm.Part) {
        // Given a part whose name, file name or type holds CR or LF
        var form = MultipartForm()
        form.append(part)
        // When the body is encoded
        // Then it fails with encoding instead of injecting headers into the part
        let error = #expect(throws: FetchError.self) { try form.encoded() }
        #expect(error?.code == .encoding)
        #expect(error?.reason == "multipart part \"\(part.name)\" has CR or LF in its name or type")
    }

    @Test func aPartContainingTheBoundaryIsRefused() {
        // Given a part whose bytes hold the delimiter
        var form = MultipartForm(boundary: "fixed")
        form.append("before\r\n--fixed\r\nafter", name: "note")
        // When encoded
        // Then it fails with encoding, naming the part
        let error = #expect(throws: FetchError.self) { try form.encoded() }
        #expect(error?.code == .encoding)
        #expect(error?.reason == "multipart part \"note\" contains the boundary")
    }

    @Test func aRefusedPartFailsTheRequestBeforeSending() {
        // Given a request whose multipart body has a bad name
        var form = MultipartForm()
        form.append("x", name: "bad\nname")
        let request = BasicRequest(url: exampleURL("/upload"), method: .post, body: .multipart(form))
        // When it is built
        // Then it fails with encoding, naming the request
        let error = #expect(throws: FetchError.self) { try request.makeURLRequest() }
        #expect(error?.code == .encoding)
        #expect(error?.url == exampleURL("/upload"))
    }
}
