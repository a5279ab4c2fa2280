/// How one call went, in ``Response/metrics``: `Session` fills in the timings, redirects and
/// byte counts; layers add what they did under a ``MetricKey`` each (``retries``, ``refreshes``,
/// FetchCaching's `cache` and `shared`). A response made by hand or by a spy has empty metrics.
public struct ResponseMetrics: Sendable, Hashable, CustomStringConvertible {
    /// A value a layer added, with its key, which says how the description writes it.
    @usableFromInline struct Added: Hashable, Sendable {
        @usableFromInline let key: ObjectIdentifier
        @usableFromInline let type: any MetricKey.Type
        @usableFromInline let value: any Hashable & Sendable

        @usableFromInline init(key: ObjectIdentifier, type: any MetricKey.Type, value: any Hashable & Sendable) {
            (self.key, self.type, self.value) = (key, type, value)
        }

        @usableFromInline static func == (lhs: Added, rhs: Added) -> Bool {
            lhs.key == rhs.key && AnyHashable(lhs.value) == AnyHashable(rhs.value)
        }

        @usableFromInline func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(AnyHashable(value))
        }
    }

    /// When the call reached the performer that answered it (wall-clock time); `nil` if untimed.
    public var start: Date?
    /// How long the call waited before its first request went out: for a slot on its origin and a task.
    public var queued: Duration?
    /// From the start of the call to the head of its final response, after any redirects.
    public var timeToFirstByte: Duration?
    /// From the start of the call to its end: the whole body received.
    public var total: Duration?
    /// How many redirects were followed.
    public var redirects: Int = 0
    /// Body bytes sent by the request that got the response (headers not counted).
    public var bytesSent: Int64 = 0
    /// Body bytes received, after content decoding (headers not counted); for a download, bytes written.
    public var bytesReceived: Int64 = 0
    /// What layers added, in the order first set; a value equal to its key's default is not kept.
    @usableFromInline var added: [Added] = []

    /// Makes empty metrics: nothing timed, nothing counted.
    public init() {}

    /// The value a layer added under `key`, or the key's default when none did.
    @inlinable
    public subscript<Key: MetricKey>(key: Key.Type) -> Key.Value {
        get {
            guard !added.isEmpty, let entry = added.first(where: { $0.key == ObjectIdentifier(key) }) else {
                return Key.defaultValue
            }
            return entry.value as? Key.Value ?? Key.defaultValue
        }
        set {
            let index = added.firstIndex { $0.key == ObjectIdentifier(key) }
            guard newValue != Key.defaultValue else {
                if let index { added.remove(at: index) }
                return
            }
            let entry = Added(key: ObjectIdentifier(key), type: key, value: newValue)
            if let index { added[index] = entry } else { added.append(entry) }
        }
    }

    /// Whether the two hold the same timings, counts and added values, in any order.
    public static func == (lhs: ResponseMetrics, rhs: ResponseMetrics) -> Bool {
        lhs.start == rhs.start && lhs.queued == rhs.queued && lhs.timeToFirstByte == rhs.timeToFirstByte
            && lhs.total == rhs.total && lhs.redirects == rhs.redirects && lhs.bytesSent == rhs.bytesSent
            && lhs.bytesReceived == rhs.bytesReceived && Set(lhs.added) == Set(rhs.added)
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(queued)
        hasher.combine(timeToFirstByte)
        hasher.combine(total)
        hasher.combine(redirects)
        hasher.combine(bytesSent)
        hasher.combine(bytesReceived)
        hasher.combine(Set(added))
    }

    /// The metrics on one line: timings in milliseconds, bytes, any redirects, then what layers added.
    public var description: String {
        let timings = [("queued", queued), ("first byte", timeToFirstByte), ("total", total)]
        var parts = timings.compactMap { name, duration in duration.map { "\(name) \(Self.milliseconds($0)) ms" } }
        parts += ["sent \(bytesSent) B", "received \(bytesReceived) B"]
        if redirects > 0 { parts.append("redirects \(redirects)") }
        parts += added.compactMap { $0.type.text(of: $0.value) }
        return parts.joined(separator: ", ")
    }

    /// `duration` in milliseconds with one decimal, as metrics and log lines write it.
    static func milliseconds(_ duration: Duration) -> String {
        let tenths = (duration.seconds * 10_000).rounded()
        return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)"
    }
}

/// A value a layer adds to ``ResponseMetrics``. Declare a type per value, and a property in
/// an extension of `ResponseMetrics` that reads and writes it:
///
/// ```swift
/// enum TraceID: MetricKey {
///     static let defaultValue: String? = nil
///     static func description(of value: String?) -> String? { value.map { "trace \($0)" } }
/// }
///
/// extension ResponseMetrics {
///     var traceID: String? {
///         get { self[TraceID.self] }
///         set { self[TraceID.self] = newValue }
///     }
/// }
/// ```
public protocol MetricKey: Sendable {
    /// The type of the value.
    associatedtype Value: Sendable & Hashable
    /// The value read when no layer added one.
    static var defaultValue: Value { get }
    /// How the metrics' description writes `value`; `nil` to leave it out.
    static func description(of value: Value) -> String?
}

extension MetricKey {
    fileprivate static func text(of value: any Hashable & Sendable) -> String? {
        (value as? Value).flatMap(description(of:))
    }
}
