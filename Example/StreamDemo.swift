import Foundation
import Fetch
import FetchTesting

/// A chat-style Server-Sent Events stream, answered by a spy: the head first, then each
/// event as it is read, then a connection lost part way, which the loop throws after the
/// events that came before it; a retry layer does not send the stream again.
enum StreamDemo {
    struct Completions: Request {
        var url: URL { URL(string: "https://api.example.com/v1/completions")! }
    }

    /// Reads the stream and returns what it saw, one line per step.
    static func run() async throws -> [String] {
        let spy = SpyPerformer([
            .stream(
                events: [
                    ServerSentEvent(type: "delta", data: "Hello", id: "1"),
                    ServerSentEvent(type: "delta", data: ", world", id: "2"),
                    ServerSentEvent(type: "done", data: "{\"tokens\": 3}", id: "3"),
                ], then: FetchError(.connectionLost, reason: "the connection closed"))
        ])
        let api = spy.retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler())

        let stream = try await api.stream(Completions())
        var lines = ["head: \(stream.response.status) \(stream.response.mediaType ?? "")"]
        var text = ""
        do {
            for try await event in stream.events {
                if event.type == "delta" { text += event.data }
                lines.append("event \(event.id) \(event.type): \(event.data)")
            }
        } catch let error as FetchError where error.code == .connectionLost {
            lines.append("then the loop threw: \(error.code) (\(spy.calls.count) request sent, not retried)")
        }
        lines.append("text so far: \(text)")
        return lines
    }
}
