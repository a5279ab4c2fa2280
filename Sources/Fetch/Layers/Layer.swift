/// One step of a stack of performers: given a call and the performer below it (`next`), it
/// performs the call through `next` (zero, one or several times) and calls back once.
///
/// A layer holds only its own decision; ``LayeredPerformer``, the performer that holds a layer
/// and the performer below it, does for every layer what each would otherwise repeat:
/// - **Exactly once**: the first result the layer delivers reaches the caller; later ones
///   are dropped.
/// - **Cancellation**: cancelling the call cancels what is in flight through `next` and the
///   handle the layer returned, and completes the call at once with
///   ``FetchError/Code-swift.enum/cancelled``.
/// - **Where results arrive**: a result the layer makes itself (before calling `next`, from a
///   `Task`, after a wait) is delivered where the performer below calls back
///   (``LayeredPerformer/completionQueue(for:)``); one it passes on from `next`'s completion
///   is delivered there and then.
/// - **Attempts**: each call to `next` after the first is a new attempt, built again, so the
///   enhancers below run again (a refreshed token, a new nonce). A stream whose reader has
///   its response cannot be sent again (``CallKind/canBeSentAgain``): `next` refuses it with a
///   ``FetchError/Code-swift.enum/layer`` error naming the layer.
///
/// A layer of your own, which sends a call once more when it meets a 503:
///
/// ```swift
/// struct ResendOn503: Layer {
///     func perform(
///         _ request: any Request, next: any RequestPerforming,
///         completion: @escaping @Sendable (Result<Response, any Error>) -> Void
///     ) -> any Cancellable {
///         next.perform(request) { result in
///             guard case .success(let response) = result, response.status == 503 else {
///                 return completion(result)
///             }
///             next.perform(request, completion: completion)
///         }
///     }
/// }
///
/// let api = Session().layered(ResendOn503())
/// ```
public protocol Layer: Sendable {
    /// The name errors use for this layer; its type name by default.
    var name: String { get }

    /// Performs `request` through `next`, zero, one or several times, and calls `completion`
    /// once with the result the caller gets.
    /// - Parameters:
    ///   - request: the call, as the layer above passed it.
    ///   - next: the performer below; each call to it after the first is a new attempt.
    ///   - completion: the caller's completion; the first call wins.
    /// - Returns: a handle that stops the layer's own work (a wait, a `Task`); what is in
    ///   flight through `next` is cancelled with the call whatever it returns.
    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable
}

extension Layer {
    /// The layer's type name.
    public var name: String { String(describing: Self.self) }
}

extension RequestPerforming {
    /// This performer with `layer` above it.
    ///
    /// ```swift
    /// let api = Session().layered(ResendOn503())
    /// ```
    /// - Parameter layer: what every call goes through first.
    /// - Returns: the layered performer.
    public func layered(_ layer: some Layer) -> LayeredPerformer {
        LayeredPerformer(layer: layer, base: self)
    }
}

extension CallKind {
    /// Whether a call of this kind may be sent again once an attempt of it was sent (a retry,
    /// a resend after a refresh): every kind may, except a stream whose reader has its
    /// response (``StreamSink/hasStarted``): nothing can replace what it read.
    public var canBeSentAgain: Bool {
        switch self {
        case .plain, .upload, .download: true
        case .stream(let sink): !sink.hasStarted
        }
    }
}
