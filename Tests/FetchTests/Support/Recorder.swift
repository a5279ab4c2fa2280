import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// Collects what completions and callbacks deliver, from any thread, so a test can assert
/// on it on the line after `perform`.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `values`.
    private let lock = NSLock()
    private var values: [Value] = []

    func record(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    var count: Int { all.count }

    /// The value when exactly one was recorded, otherwise `nil`.
    var single: Value? {
        let values = all
        return values.count == 1 ? values[0] : nil
    }
}

/// Performs `request` with a completion handler and returns what the completion got, or
/// `nil` when it was not called exactly once before `perform` returned.
@discardableResult
func performNow(_ performer: some RequestPerforming, _ request: any Request) -> Result<Response, any Error>? {
    let recorder = Recorder<Result<Response, any Error>>()
    performer.perform(request) { recorder.record($0) }
    return recorder.single
}

/// A short description of a result, for comparing callback and async callers:
/// `"200"`, or the error's code (`"cancelled"`), or the error itself.
func outcome(_ result: Result<Response, any Error>?) -> String {
    switch result {
    case .success(let response): return "\(response.status)"
    case .failure(let error as FetchError): return error.code.rawValue
    case .failure(let error): return "\(error)"
    case nil: return "no result"
    }
}

/// Performs `request` through `performer` with async/await and describes the outcome like ``outcome(_:)``.
func asyncOutcome(_ performer: some RequestPerforming, _ request: any Request) async -> String {
    do {
        return outcome(.success(try await performer.response(for: request)))
    } catch {
        return outcome(.failure(error))
    }
}

/// A GET request to `url`.
func get(_ url: String, options: RequestOptions = RequestOptions()) -> BasicRequest {
    BasicRequest(url: URL(string: url)!, options: options)
}

/// The error of a result, as a ``FetchError`` when it is one.
func fetchError(_ result: Result<Response, any Error>?) -> FetchError? {
    guard case .failure(let error as FetchError) = result else { return nil }
    return error
}
