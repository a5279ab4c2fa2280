/// Changes every outgoing `URLRequest` (a base URL, a header, credentials) and may change or
/// check every incoming ``Response``; put enhancers above a performer with `enhanced(by:)`.
///
/// They run in ``priority`` order, highest first, after the request's own `adjust(_:)`, and what they make is checked
/// as `Session` checks every request; responses pass through them in the reverse order. One that throws fails the
/// call with an error naming it (``FetchError/layer``).
public protocol Enhancer: Sendable {
    /// Where the enhancer runs among the others; ``EnhancerPriority/normal`` by default.
    var priority: EnhancerPriority { get }
    /// The name errors use for this enhancer; its type name by default.
    var name: String { get }
    /// Changes the outgoing request; does nothing by default.
    /// - Parameters:
    ///   - urlRequest: the request as built so far.
    ///   - request: the request the caller passed, to read its ``Request/options``.
    /// - Throws: any error, which fails the call before anything is sent.
    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws
    /// Changes or checks the incoming response; does nothing by default.
    /// - Throws: any error, which fails the call instead of delivering the response.
    func enhance(_ response: inout Response) throws
}

extension Enhancer {
    /// ``EnhancerPriority/normal``.
    public var priority: EnhancerPriority { .normal }
    /// The enhancer's type name.
    public var name: String { String(describing: Self.self) }
    /// Leaves the request as it is.
    public func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {}
    /// Leaves the response as it is.
    public func enhance(_ response: inout Response) throws {}
}
