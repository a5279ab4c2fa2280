import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// A body the spy delivers in pieces, for tests of code that reads streams.
///
/// A streamed call gets the head, then each piece, all before `perform` returns; a failure
/// part ends the call with that error after the pieces before it. Any other call gets the
/// head with every piece as its body, or the failure. A head whose status the stream does not
/// accept gets the pieces as the body of its `FetchError.Code.httpStatus` error.
public struct ScriptedStream: Sendable {
    /// One step of the script.
    public enum Part: Sendable {
        /// These body bytes.
        case chunk(Data)
        /// This event, in the `text/event-stream` format.
        case event(ServerSentEvent)
        /// End the call with this error.
        case failure(any Error)
    }

    /// The head: status and headers; its body is ignored.
    public var head: Response
    /// The steps, in order.
    public var parts: [Part]

    /// Makes a script.
    public init(head: Response, parts: [Part]) {
        self.head = head
        self.parts = parts
    }

    /// Plays the script to `call`: head and pieces to its stream, if any, then the completion.
    func play(to call: PendingCall) {
        var head = self.head
        head.request = callersRequest(of: call.request)
        if let urlRequest = call.urlRequest {
            head.urlRequest = urlRequest
            head.url = urlRequest.url
        }
        head.body = Data()
        guard let sink = call.sink, sink.open(head) else {
            for part in parts {
                switch part {
                case .chunk(let data): head.body.append(data)
                case .event(let event): head.body.append(event.textEventStream)
                case .failure(let error): return call.fail(error)
                }
            }
            return call.respond(head)
        }
        for part in parts {
            switch part {
            case .chunk(let data): sink.receive(data)
            case .event(let event): sink.receive(event.textEventStream)
            case .failure(let error): return call.fail(error)
            }
        }
        call.respond(head)
    }
}

extension PendingCall {
    /// Where a streamed call's body goes (`RequestOptions.kind` `.stream`), to `open` with a
    /// head and `receive` chunks one by one; `nil` for a call of another kind.
    public var sink: StreamSink? {
        switch request.options.kind {
        case .stream(let sink): sink
        case .plain, .download, .upload: nil
        }
    }
}

extension SpyPerformer.Answer {
    /// Answers with a head of `status` and `headers`, then `chunks` one by one, then
    /// `failure` if given.
    public static func stream(
        _ chunks: [Data], status: Int = 200, headers: HTTPHeaders = [:], then failure: (any Error)? = nil
    ) -> SpyPerformer.Answer {
        .stream(
            ScriptedStream(
                head: Response(status: status, headers: headers),
                parts: chunks.map { .chunk($0) } + (failure.map { [.failure($0)] } ?? [])
            ))
    }

    /// Answers with a `text/event-stream` head, then `events` one by one, then `failure`
    /// if given.
    public static func stream(
        events: [ServerSentEvent], status: Int = 200,
        then failure: (any Error)? = nil
    ) -> SpyPerformer.Answer {
        .stream(
            ScriptedStream(
                head: Response(status: status, headers: ["Content-Type": "text/event-stream"]),
                parts: events.map { .event($0) } + (failure.map { [.failure($0)] } ?? [])
            ))
    }
}

extension ServerSentEvent {
    /// The event in the `text/event-stream` format, ending with its blank line: `event:` unless
    /// the type is `message`, `id:` and `retry:` when set, one `data:` line per line of ``data``.
    public var textEventStream: Data {
        var text = ""
        if type != "message" { text += "event: \(type)\n" }
        if !id.isEmpty { text += "id: \(id)\n" }
        if let retry { text += "retry: \(retry)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return Data((text + "\n").utf8)
    }
}
