import Fetch

/// Something a completion holds, to tell whether the completion is still held: a test keeps
/// only a weak reference to it once the call has been made.
final class Canary: Sendable {
    /// Gives the completion something to hold.
    func sing() {}
}

/// Makes a call with a completion that holds a new canary, keeping the call's handle as a
/// caller may; returns the handle and a weak reference to the canary.
func callHoldingACanary(
    _ call: (_ completion: @escaping @Sendable () -> Void) -> any Cancellable
) -> (handle: any Cancellable, canary: WeakCanary) {
    let canary = Canary()
    let weak = WeakCanary(canary)
    let handle = call { canary.sing() }
    return (handle, weak)
}

/// A weak reference to a ``Canary``.
struct WeakCanary {
    weak var canary: Canary?
    init(_ canary: Canary) { self.canary = canary }
    /// Whether the canary was freed.
    var isFreed: Bool { canary == nil }
}
