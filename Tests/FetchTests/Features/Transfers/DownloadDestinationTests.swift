import Foundation
import Testing
import Fetch

struct DownloadDestinationTests {
    let request = BasicRequest(url: URL(string: "https://example.com/archive.tar.gz")!)

    @Test func writeCreatesTheFileAndLeavesNothingElse() throws {
        // Given an empty folder
        let folder = try TemporaryFolder()
        // When bytes are written to a file destination
        let url = try DownloadDestination.file(folder.file("a.bin")).write(Data([1, 2, 3]), for: request)
        // Then the file holds them and no partial file is left
        #expect(try Data(contentsOf: url) == Data([1, 2, 3]))
        #expect(try folder.contents() == ["a.bin"])
    }

    @Test func existingFileIsRefusedUnlessReplacing() throws {
        // Given a file that exists
        let folder = try TemporaryFolder()
        let existing = try folder.write("old", to: "a.bin")
        // When it is written without, then with permission to replace
        // Then the first fails with a file error that says how to replace, the second replaces
        #expect {
            _ = try DownloadDestination.file(existing).write(Data("new".utf8), for: request)
        } throws: { error in
            let error = error as? FetchError
            return error?.code == .file && error?.reason.contains("replacingExisting") == true
        }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "old")
        _ = try DownloadDestination.file(existing, replacingExisting: true).write(Data("new".utf8), for: request)
        #expect(try String(contentsOf: existing, encoding: .utf8) == "new")
        #expect(try folder.contents() == ["a.bin"])
    }

    @Test func temporaryFileIsNewAndKeepsTheExtension() throws {
        // Given a folder for temporary files
        let folder = try TemporaryFolder()
        // When two downloads go to temporary files
        let first = try DownloadDestination.temporaryFile(in: folder.url).write(Data("1".utf8), for: request)
        let second = try DownloadDestination.temporaryFile(in: folder.url).write(Data("2".utf8), for: request)
        // Then each gets its own file, named with the URL's extension
        #expect(first != second)
        #expect(first.pathExtension == "gz")
        #expect(try folder.contents().count == 2)
    }

    @Test func missingFolderIsAFileError() {
        // Given a destination in a folder that does not exist
        let destination = DownloadDestination.file(URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/a.bin"))
        // When bytes are written
        // Then it fails with a file error
        #expect { _ = try destination.write(Data(), for: request) } throws: { ($0 as? FetchError)?.code == .file }
    }

    @Test func folderAsDestinationIsAFileError() throws {
        // Given a destination that is a folder
        let folder = try TemporaryFolder()
        // When bytes are written to it, even allowed to replace
        // Then it fails with a file error and the folder stays
        #expect {
            _ = try DownloadDestination.file(folder.url, replacingExisting: true).write(Data(), for: request)
        } throws: { ($0 as? FetchError)?.code == .file }
        #expect(try folder.contents().isEmpty)
    }
}
