import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SessionDelegate {
    func registerTransfer(_ task: URLSessionTask, _ transfer: TransferState) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    /// Forgets `transfer`, whichever task carried it (transfers are few; a scan is cheap).
    func removeTransfer(_ transfer: TransferState) {
        transfers.withLock { table in
            for (identifier, entry) in table where entry === transfer { table.removeValue(forKey: identifier) }
        }
    }

    func transfer(for task: URLSessionTask) -> TransferState? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.sentBody(total: totalBytesSent, expectedTotal: totalBytesExpectedToSend)
    }
}
