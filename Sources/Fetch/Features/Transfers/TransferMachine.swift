/// The life of a transfer's body as a value: where a download's partial file stands (``Phase``), the ``Event``s that
/// move it and the ``Effect``s its owner carries out. No lock, no I/O, no clock (events bring the time):
/// `TransferState` carries out the effects after unlocking. An upload has no file: only its progress.
struct TransferMachine: Sendable {
    enum Phase: Equatable, Sendable {
        /// No head yet: nothing is written (an upload stays here until it ends).
        case ready
        /// A 2xx body goes to the partial file.
        case writing
        /// A status other than 2xx: the body is declined (kept by the task for the error).
        case declined
        /// A 416 said the partial file already holds the whole body: the body goes nowhere.
        case whole
        /// No more bytes are taken (a head that does not fit, a failed write).
        case closed
        /// The caller cancelled: the file was kept or deleted at once.
        case stopped
        /// The file was moved into place, kept or deleted.
        case settled
    }

    enum Event: Sendable {
        case responded(status: Int, headers: HTTPHeaders, length: Int64?)
        /// Body bytes arrived at `now` (nanoseconds, monotonic, for the progress throttle).
        case received(Data, now: UInt64)
        /// URLSession sent `total` request body bytes of `expected` (0 when unknown).
        case sent(total: Int64, expected: Int64, now: UInt64)
        case writeFailed
        /// A fresh, empty partial file replaced one that could not be continued.
        case restarted
        case stop(keeping: Bool)
        case settle(status: Int)
        /// The call ended; keep the partial file when asked and it can be resumed.
        case close(keepingPartial: Bool)
    }

    /// What the owner must do, in the order given.
    enum Effect: Sendable {
        /// Cut the partial file to `offset` and write `record` (or remove it); ``Event/writeFailed`` when that fails.
        case begin(offset: Int64, record: PartialRecord?)
        /// The head cannot continue the partial file: send the request again from the first byte.
        case startOver
        case fail(FetchError)
        case decline
        case write(Data)
        case report(TransferProgress)
        /// Close the partial file, kept for a resume when `keeping`, otherwise deleted.
        case end(keeping: Bool)
        /// Move the file into place, checked against `length` when known, then report `total`
        /// finished. `whole`: a 416 said the file was whole, so the response becomes a 200.
        case commit(length: Int64?, total: Int64, whole: Bool)
    }

    private(set) var phase = Phase.ready
    let downloads: Bool
    /// The URL the request is first sent to, which a fresh body's record names.
    let url: URL?
    /// Where the request asked the partial file to resume; `nil` for the whole body.
    private(set) var asked: ResumePoint?
    /// Whether the partial file on disk has a ``PartialRecord``.
    private(set) var resumable: Bool
    /// The bytes in a download's file, counted from its start (a resumed one included).
    private(set) var received: Int64 = 0
    private(set) var expected: Int64?
    /// The length the file must have when it is committed (a resumed or whole file).
    private var checkedLength: Int64?
    private(set) var sent: Int64 = 0
    let uploadLength: Int64?
    private var throttle = ProgressThrottle()

    init(downloads: Bool, url: URL? = nil, asked: ResumePoint? = nil, uploadLength: Int64? = nil) {
        (self.downloads, self.url, self.asked) = (downloads, url, asked)
        resumable = asked != nil
        self.uploadLength = uploadLength
    }

    /// Whether the body of a response is still taken.
    var isLive: Bool {
        switch phase {
        case .ready, .writing, .declined, .whole: true
        case .closed, .stopped, .settled: false
        }
    }

    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .responded(let status, let headers, let length): return respond(status, headers, length)
        case .received(let data, let now):
            guard phase == .writing else { return [] }
            received += Int64(data.count)
            // A compressed body decodes to more bytes than its announced length.
            if let known = expected, received > known { expected = nil }
            guard throttle.allows(at: now) else { return [.write(data)] }
            return [.write(data), .report(TransferProgress(completedBytes: received, expectedBytes: expected))]
        case .sent(let total, let announced, let now):
            guard isLive else { return [] }
            sent = total
            guard throttle.allows(at: now) else { return [] }
            let expected = uploadLength ?? (announced > 0 ? announced : nil)
            return [.report(TransferProgress(completedBytes: total, expectedBytes: expected))]
        case .writeFailed:
            if isLive { phase = .closed }
            return []
        case .restarted:
            guard isLive || phase == .closed else { return [] }
            (phase, asked, resumable, received, expected, checkedLength) = (.ready, nil, false, 0, nil, nil)
            return []
        case .settle(let status):
            guard downloads else {
                guard isLive else { return [] }
                let total = (200..<300).contains(status) ? uploadLength ?? sent : sent
                return [.report(.finished(total))]
            }
            switch phase {
            case .declined:
                return []
            case .stopped:
                return [.fail(FetchError.cancelled())]
            case .closed, .settled:
                return [.fail(FetchError(.file, reason: "the download was stopped before it completed"))]
            case .ready, .writing, .whole:
                defer { phase = .settled }
                return [.commit(length: checkedLength, total: received, whole: phase == .whole)]
            }
        case .stop(let keeping), .close(let keeping):
            let ending: Phase = if case .stop = event { .stopped } else { .settled }
            // An upload has no file: a stop lets it run on to its end.
            guard downloads || ending == .settled, phase != .stopped, phase != .settled else { return [] }
            defer { phase = ending }
            return [.end(keeping: keeping && resumable && phase != .closed)]
        }
    }

    private mutating func respond(_ status: Int, _ headers: HTTPHeaders, _ length: Int64?) -> [Effect] {
        guard downloads, isLive else { return [] }
        do {
            switch try ResumeAnswer.decide(status: status, headers: headers, contentLength: length, asked: asked) {
            case .notABody:
                phase = .declined
                return [.decline]
            case .startOver:
                phase = .closed
                return [.startOver]
            case .whole(let total):
                (phase, received, expected, checkedLength) = (.whole, total, total, total)
                return []
            case .fresh(let total):
                // Resumable only with a strong validator (see ``PartialRecord``).
                let record = PartialRecord(url: url, headers: headers, length: total)
                (phase, received, expected, checkedLength, resumable) = (.writing, 0, total, nil, record != nil)
                return [.begin(offset: 0, record: record)]
            case .append(let offset, let total):
                var record = asked?.record
                record?.length = total
                (phase, received, expected, checkedLength, resumable) = (.writing, offset, total, total, true)
                let report = TransferProgress(completedBytes: offset, expectedBytes: total)
                return [.begin(offset: offset, record: record)] + (offset > 0 ? [.report(report)] : [])
            }
        } catch {
            phase = .closed
            return [.fail(error)]
        }
    }
}
