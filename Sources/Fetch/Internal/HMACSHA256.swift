/// HMAC-SHA-256 (RFC 2104): a digest that only the holder of the key can compute, so a
/// digest seen elsewhere (a storage key in a log) cannot be matched against a table of
/// likely inputs.
struct HMACSHA256 {
    /// The hash state after the inner padded key, and after the outer one: each message
    /// starts from these instead of hashing the key again.
    private var inner = SHA256()
    private var outer = SHA256()

    /// Prepares to authenticate with `key`; a key longer than a block is hashed first.
    init(key: [UInt8]) {
        var block = key
        if block.count > SHA256.blockLength {
            var hash = SHA256()
            hash.update(block)
            block = hash.finalize()
        }
        block += [UInt8](repeating: 0, count: SHA256.blockLength - block.count)
        inner.update(block.map { $0 ^ 0x36 })
        outer.update(block.map { $0 ^ 0x5c })
    }

    /// Prepares to authenticate with a key of 32 random bytes.
    init<Generator: RandomNumberGenerator>(randomKeyFrom generator: inout Generator) {
        self.init(key: (0..<SHA256.digestLength).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The authentication code of `message`: 32 bytes.
    func authenticate(_ message: [UInt8]) -> [UInt8] {
        var innerHash = inner
        innerHash.update(message)
        var outerHash = outer
        outerHash.update(innerHash.finalize())
        return outerHash.finalize()
    }
}
