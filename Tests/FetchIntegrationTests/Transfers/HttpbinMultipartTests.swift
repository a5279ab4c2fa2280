import Foundation
import Testing
import Fetch

@Suite(.loopbackServers)
struct HttpbinMultipartTests {
    struct Echo: Decodable, Parsable {
        let files: [String: String]
        let form: [String: String]
        let headers: [String: String]
    }

    @Test func httpbinEchoesFilePartsNamesAndSizes() async throws {
        // Given a form with a text field and two small text files
        let servers = try LoopbackServers.require()
        let folder = try ScratchFolder()
        let notes = folder.file("notes.txt")
        try Data(String(repeating: "n", count: 1234).utf8).write(to: notes)
        let todo = folder.file("todo.txt")
        try Data(String(repeating: "t", count: 56).utf8).write(to: todo)
        var form = MultipartForm()
        form.append("Ada", name: "author")
        form.append(contentsOf: notes, name: "notes", contentType: "text/plain")
        form.append(contentsOf: todo, name: "todo", contentType: "text/plain")
        // When it is posted to httpbin
        let echo = try await Session().perform(
            BasicRequest(url: servers.httpbin.url("/post"), method: .post, body: .multipart(form)), as: Echo.self
        )
        // Then httpbin names each file part and holds its whole content
        #expect(echo.form == ["author": "Ada"])
        #expect(echo.files.mapValues(\.count) == ["notes": 1234, "todo": 56])
        #expect(echo.headers["Content-Length"] == form.contentLength.map(String.init))
    }
}
