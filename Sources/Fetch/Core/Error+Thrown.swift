extension Error {
    /// This error as `type`, or, when it is a ``FetchError`` of code
    /// ``FetchError/Code-swift.enum/layer``, the error the layer's own code threw (a hook,
    /// an enhancer, an error handler, a refresh), as `type`; `nil` otherwise.
    ///
    /// A layer wraps what your code throws so that the error names the layer (``FetchError/layer``)
    /// and the call; this finds your error again:
    ///
    /// ```swift
    /// do {
    ///     try await api.perform(GetUser(id: 7))
    /// } catch let error where error.thrown(as: AppError.self) == .offline {
    ///     showOfflineBanner()
    /// }
    /// ```
    /// - Parameter type: the type of your error.
    /// - Returns: the error, or `nil` when neither this error nor what a layer wrapped is one.
    public func thrown<Thrown: Error>(as type: Thrown.Type) -> Thrown? {
        if let match = self as? Thrown { return match }
        guard let wrapper = self as? FetchError, wrapper.code == .layer, let inner = wrapper.underlying else {
            return nil
        }
        return inner.thrown(as: type)
    }
}
