import Foundation

/// Runs `work`, which blocks its thread (waits for a semaphore, a pipe, a process, or
/// URLSession's work queue), on a thread of its own and returns what it returns.
///
/// Swift Testing runs test functions in parallel on the Swift concurrency pool, which has one
/// thread per core: on two cores, two tests blocking a pool thread each stop every other test
/// of the process (their awaits, their timeouts' checks) for as long as they block.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
