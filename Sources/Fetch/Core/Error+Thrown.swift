extension Error {
    /// This error as `type`, or, for a ``FetchError`` of code ``FetchError/Code-swift.enum/layer``, the error your
    /// code threw inside the layer (a hook, an enhancer, an error handler, a refresh); `nil` when neither is one.
    public func thrown<Thrown: Error>(as type: Thrown.Type) -> Thrown? {
        if let match = self as? Thrown { return match }
        guard let wrapper = self as? FetchError, wrapper.code == .layer, let inner = wrapper.underlying else {
            return nil
        }
        return inner.thrown(as: type)
    }
}
