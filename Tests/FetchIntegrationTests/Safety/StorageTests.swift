import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// By default a session keeps no cookie, caches no response and writes no file under the
/// home folder; cookies and caching are opt-ins.
@Suite(.loopbackServers)
struct StorageTests {
    @Test func noCookieIsKeptByDefault() async throws {
        // Given a session that received a persistent cookie
        let servers = try LoopbackServers.require()
        let session = Session()
        _ = try await session.response(for: BasicRequest(url: servers.faults.url("/set-cookie")))
        // When it sends another request to the same server
        let echoed = try await session.perform(BasicRequest(url: servers.faults.url("/echo")), as: EchoedRequest.self)
        // Then the cookie is not sent back
        #expect(echoed.header("cookie") == nil)
    }

    @Test func noResponseIsCachedByDefault() async throws {
        // Given a resource the server says may be cached for an hour
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let session = Session()
        let request = BasicRequest(url: servers.faults.url("/resource?tag=\(tag)"))
        // When it is requested twice
        _ = try await session.response(for: request)
        _ = try await session.response(for: request)
        // Then both requests reached the server
        #expect(try await servers.faults.seen(tag: tag).count == 2)
    }

    @Test func nothingIsWrittenUnderHome() async throws {
        // Given an empty home folder
        // When a child process with that home uses default sessions: cookies, cacheable responses
        let (outcome, files, folders) = try await Self.runWithEmptyHome("IsolatedStorageTests/defaultSessionsOnly")
        // Then its requests passed, and it left no file there
        #expect(outcome.status == 0, "\(outcome.output.suffix(3000))")
        #expect(files.isEmpty, "written under HOME: \(files)")
        print("home after default sessions: files \(files), folders \(folders)")
    }

    @Test func cookieStorageAndCacheAreOptIns() async throws {
        // Given an empty home folder
        // When a child process with that home uses a session with an in-memory cookie store and cache
        let (outcome, files, _) = try await Self.runWithEmptyHome("IsolatedStorageTests/optIns")
        // Then cookies were sent back there, and the in-memory stores wrote no file either
        #expect(outcome.status == 0, "\(outcome.output.suffix(3000))")
        #expect(files.isEmpty, "written under HOME: \(files)")
    }

    /// Runs the isolated test `name` with a new, empty home folder (and no XDG folders), and
    /// lists what it left there.
    static func runWithEmptyHome(_ name: String) async throws
        -> (outcome: IsolatedRun.Outcome, files: [String], folders: [String])
    {
        let servers = try LoopbackServers.require()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(uniqueTag())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let outcome = try await IsolatedRun.run(
            name, faultServer: servers.faults,
            environment: ["HOME": home.path, "XDG_CACHE_HOME": nil, "XDG_DATA_HOME": nil, "XDG_CONFIG_HOME": nil]
        )
        let (files, folders) = contents(of: home)
        return (outcome, files, folders)
    }

    /// The regular files and the folders below `folder`, as paths relative to it.
    static func contents(of folder: URL) -> (files: [String], folders: [String]) {
        var files: [String] = []
        var folders: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            if isFolder.boolValue { folders.append(path) } else { files.append(path) }
        }
        return (files.sorted(), folders.sorted())
    }
}

/// The part of ``StorageTests`` that runs in a child process with a home folder of its own.
@Suite
struct IsolatedStorageTests {
    @Test(.enabled(if: IsolatedRun.isChild(named: "IsolatedStorageTests/defaultSessionsOnly")))
    func defaultSessionsOnly() async throws {
        // Given a default session
        let session = Session()
        // When it receives a persistent cookie and a cacheable response
        _ = try await session.response(for: BasicRequest(url: try IsolatedRun.faultServer(path: "/set-cookie")))
        let echoed = try await session.perform(
            BasicRequest(url: try IsolatedRun.faultServer(path: "/echo")), as: EchoedRequest.self
        )
        let resource = try await session.response(
            for: BasicRequest(url: try IsolatedRun.faultServer(path: "/resource")))
        // Then it neither sent the cookie back nor failed
        #expect(echoed.header("cookie") == nil)
        #expect(resource.status == 200)
    }

    @Test(.enabled(if: IsolatedRun.isChild(named: "IsolatedStorageTests/optIns")))
    func optIns() async throws {
        // Given a session with an in-memory cookie store and, where the platform stores HTTP
        // responses in one (a session with one is refused on Linux), an in-memory URL cache
        var configuration = Session.Configuration()
        configuration.cookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
        #if !canImport(FoundationNetworking)
        configuration.urlCache = URLCache(memoryCapacity: 1024 * 1024, diskCapacity: 0, diskPath: nil)
        #endif
        let session = Session(configuration: configuration)
        let tag = uniqueTag()
        let resource = BasicRequest(url: try IsolatedRun.faultServer(path: "/resource?tag=\(tag)"))
        // When it receives a cookie, then sends another request, and asks twice for a cacheable resource
        _ = try await session.response(for: BasicRequest(url: try IsolatedRun.faultServer(path: "/set-cookie")))
        let echoed = try await session.perform(
            BasicRequest(url: try IsolatedRun.faultServer(path: "/echo")), as: EchoedRequest.self
        )
        _ = try await session.response(for: resource)
        let second = try await session.response(for: resource)
        // Then the cookie went back, and the second answer came from the cache where the
        // platform has one
        #expect(echoed.header("cookie") == "session=secret-cookie")
        #expect(second.status == 200)
        let seen = try await session.perform(
            BasicRequest(url: try IsolatedRun.faultServer(path: "/_seen?tag=\(tag)")), decoding: [SeenRequest].self,
            using: JSONDecoder()
        )
        #if canImport(FoundationNetworking)
        #expect(seen.count == 2)
        #else
        #expect(seen.count == 1)
        #endif
    }
}
