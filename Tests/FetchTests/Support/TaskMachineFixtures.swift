import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// A task handle as the machine sees it: only its identity counts.
final class FakeTask: CustomStringConvertible {
    /// The task's name in effects and phases, such as `t1`.
    let description: String
    /// A task called `name`.
    init(_ name: String) { description = name }
}

/// Where a test machine hands a body that does not go into memory: only its identity counts.
final class FakeKindHandler: CustomStringConvertible, Sendable {
    /// The kindHandler's name in effects, such as `file`.
    let description: String
    /// A kindHandler called `name`.
    init(_ name: String) { description = name }
}

/// The machine under test: fake tasks and kindHandler, and a name for the owner.
typealias Machine = TaskMachine<FakeTask, String, FakeKindHandler>

/// The owner every test machine is made with.
let owner = "session"

/// A URLRequest for `path` on one origin.
func urlRequest(_ path: String, method: String = "GET") -> URLRequest {
    var request = URLRequest(url: URL(string: "http://a.example\(path)")!)
    request.httpMethod = method
    return request
}

/// Where a test machine is brought before the event under test.
enum Stage: String, CaseIterable, CustomTestStringConvertible {
    case admitted, running, awaitingRedirectDecision, cancelAfterRedirectDecision, finished

    /// The stage's name in test results.
    var testDescription: String { rawValue }
}

extension TaskMachine where Task == FakeTask, Owner == String, KindHandler == FakeKindHandler {
    /// A machine for `GET /start`, admitted, with a body limit of 10 bytes in memory, or
    /// with its body handed to `kindHandler`.
    static func admitted(method: String = "GET", kindHandler: FakeKindHandler? = nil) -> Machine {
        Machine(
            owner: owner, request: urlRequest("/start", method: method),
            body: kindHandler.map { .handedTo($0) } ?? .memory(limit: 10))
    }

    /// A machine brought to `stage` with `task` as its (first) task, its body handed to
    /// `kindHandler` when there is one.
    static func at(_ stage: Stage, task: FakeTask, kindHandler: FakeKindHandler? = nil) -> Machine {
        var machine = admitted(kindHandler: kindHandler)
        let steps: [Event] =
            switch stage {
            case .admitted: []
            case .running: [.started(task)]
            case .awaitingRedirectDecision: [.started(task), .redirected(task)]
            case .cancelAfterRedirectDecision: [.started(task), .redirected(task), .failed(FetchError.cancelled())]
            case .finished: [.started(task), .ended(task, nil)]
            }
        for step in steps { _ = machine.handle(step) }
        return machine
    }

    /// Handles `event` and describes the effects.
    mutating func run(_ event: Event) -> [String] {
        handle(event).map(\.summary)
    }

    /// The owner a live phase holds; `nil` once the request has finished.
    var heldOwner: Owner? {
        switch phase {
        case .admitted(let owner), .running(_, let owner), .awaitingRedirectDecision(_, let owner): owner
        case .cancelAfterRedirectDecision, .finished: nil
        }
    }
}

extension TaskMachine.Phase where Task == FakeTask, Owner == String, KindHandler == FakeKindHandler {
    /// The phase in a few words, such as `running(t1)`.
    var summary: String {
        switch self {
        case .admitted: "admitted"
        case .running(let task, _): "running(\(task))"
        case .awaitingRedirectDecision(let task, _): "awaitingRedirectDecision(\(task))"
        case .cancelAfterRedirectDecision(let task): "cancelAfterRedirectDecision(\(task))"
        case .finished: "finished"
        }
    }
}

extension TaskMachine.Effect where Task == FakeTask, Owner == String, KindHandler == FakeKindHandler {
    /// The effect in a few words, such as `cancel t1` or `complete cancelled`.
    var summary: String {
        switch self {
        case .resume(let task): "resume \(task)"
        case .cancel(let task): "cancel \(task)"
        case .forget(let task): "forget \(task)"
        case .decideRedirect(let from, let hop): "decide \(from.url?.path ?? "?") hop \(hop)"
        case .answerRedirect(let next): "answer \(next?.url?.path ?? "nil")"
        case .send(let next, let owner): "send \(next.url?.path ?? "?") for \(owner)"
        case .complete(.received(let body, let sent)):
            "complete \"\(String(decoding: body, as: UTF8.self))\" for \(sent.httpMethod ?? "?") \(sent.url?.path ?? "?")"
        case .complete(.failed(let error)): "complete \(error.code.rawValue)"
        case .release(let owner): "release \(owner)"
        case .open(let kindHandler): "open \(kindHandler)"
        case .write(let kindHandler, let data): "write \(data.count) to \(kindHandler)"
        case .reportSent(let total, let expected): "sent \(total) of \(expected)"
        }
    }
}
