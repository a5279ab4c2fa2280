extension MultipartForm {
    /// The length of the encoded form in bytes, known without encoding it: `nil` when the
    /// size of a file part cannot be read (a missing file, a pipe).
    public var contentLength: Int64? {
        var total = Int64("--\(boundary)--\r\n".utf8.count)
        for part in parts {
            let size: Int64?
            switch part.content {
            case .data(let data): size = Int64(data.count)
            case .file(let url): size = FileBody.size(of: url)
            }
            guard let size else { return nil }
            // The delimiter line, the part's header lines, its bytes, and the line end after them.
            total += Int64("--\(boundary)\r\n".utf8.count + headerLines(for: part).utf8.count) + size + 2
        }
        return total
    }

    /// Writes the encoded form to a new file at `url`, removed on any error: what ``encoded()`` throws, a
    /// ``FetchError/Code-swift.enum/file`` error, or ``FetchError/Code-swift.enum/cancelled`` once `isCancelled()`.
    func writeEncoded(to url: URL, isCancelled: () -> Bool) throws {
        let output = try FileBody.create(url)
        do {
            defer { try? output.close() }
            try encode { piece in
                if isCancelled() { throw FetchError.cancelled() }
                try FetchError.attempt("write the form to \(url.path)") { try output.write(contentsOf: piece) }
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// Copies a file part through `write` in chunks, failing if it holds the boundary (even across chunk edges).
    func copy(_ url: URL, of part: Part, chunkSize: Int, delimiter: Data, into write: (Data) throws -> Void) throws {
        try FileBody.checkReadable(url)
        let input = try FetchError.attempt("open \(url.path)") { try FileHandle(forReadingFrom: url) }
        defer { try? input.close() }
        var tail = Data()
        while true {
            let chunk = try FetchError.attempt("read \(url.path)") { try input.read(upToCount: chunkSize) ?? Data() }
            if chunk.isEmpty { return }
            let window = tail + chunk
            if window.range(of: delimiter) != nil { throw refusing(part, "contains the boundary") }
            tail = window.suffix(delimiter.count - 1)
            try write(chunk)
        }
    }
}
