import Foundation
import Testing
import Fetch
import FetchTesting

@Suite struct StatusErrorHandlerRangeTests {
    @Test func aRangeOfStatusesIsHandledAndNamedAsARange() {
        // Given handlers made from a half-open and a closed range
        let halfOpen = StatusErrorHandler(500..<600) { _, _ in .pass }
        let closed = StatusErrorHandler(401...403) { _, _ in .pass }
        let listed = StatusErrorHandler(401, 403) { _, _ in .pass }

        // When they are asked about statuses
        func handles(_ handler: StatusErrorHandler, _ status: Int) -> Bool {
            handler.handles(FetchError.httpStatus(Response(status: status)), for: get("http://x"))
        }

        // Then each handles exactly its statuses, and names them compactly
        #expect([499, 500, 599, 600].map { handles(halfOpen, $0) } == [false, true, true, false])
        #expect([400, 401, 403, 404].map { handles(closed, $0) } == [false, true, true, false])
        #expect(halfOpen.name == "StatusErrorHandler(500..<600)")
        #expect(closed.name == "StatusErrorHandler(401..<404)")
        #expect(listed.name == "StatusErrorHandler(401, 403)")
    }
}
