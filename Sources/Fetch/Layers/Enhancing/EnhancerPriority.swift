/// Where an ``Enhancer`` runs among the others: a value (higher runs first on the outgoing request, equal ones in
/// order) or a place just before or after another enhancer's type (``normal`` when none of that type is listed).
public struct EnhancerPriority: Sendable, Hashable, CustomStringConvertible {
    enum Placement: Hashable {
        case value(Int)
        /// Just before (`side` -1) or just after (1) the enhancers of the type named `name`.
        case beside(ObjectIdentifier, name: String, side: Int)
    }

    let placement: Placement

    /// A priority of `value`: ``low`` is 250, ``normal`` 500, ``high`` 750.
    public init(_ value: Int) { placement = .value(value) }

    private init(_ placement: Placement) { self.placement = placement }

    /// Runs after the normal ones (for example a signature over the final request).
    public static let low = EnhancerPriority(250)
    /// The default.
    public static let normal = EnhancerPriority(500)
    /// Runs before the normal ones (for example a base URL, so others see the full URL).
    public static let high = EnhancerPriority(750)

    /// Runs just before the enhancers of type `type`.
    public static func before<Other: Enhancer>(_ type: Other.Type) -> EnhancerPriority {
        EnhancerPriority(.beside(ObjectIdentifier(type), name: String(describing: type), side: -1))
    }

    /// Runs just after the enhancers of type `type`.
    public static func after<Other: Enhancer>(_ type: Other.Type) -> EnhancerPriority {
        EnhancerPriority(.beside(ObjectIdentifier(type), name: String(describing: type), side: 1))
    }

    /// `500`, `before BearerToken`, ...
    public var description: String {
        switch placement {
        case .value(let value): return "\(value)"
        case .beside(_, let name, let side): return (side < 0 ? "before " : "after ") + name
        }
    }
}
