/// SHA-256 (FIPS 180-4), fed in pieces. Foundation on Linux offers no digest and the package
/// takes no dependencies, so the cache's partition keys (``CachePartition``) use this one.
struct SHA256 {
    /// The length of a digest in bytes.
    static let digestLength = 32
    /// The length of a block in bytes.
    static let blockLength = 64

    private var state = SIMD8<UInt32>(
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// The bytes fed since the last whole block.
    private var pending: [UInt8] = []
    /// How many bytes were fed in all.
    private var length: UInt64 = 0

    /// Feeds `bytes`.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    /// Feeds `bytes`: whole blocks straight from them, the rest through ``pending``.
    private mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = rest.prefix(Self.blockLength - pending.count)
            pending += taken
            rest = rest.dropFirst(taken.count)
            guard pending.count == Self.blockLength else { return }
            let block = pending
            block.withUnsafeBufferPointer { compress($0[...]) }
            pending.removeAll(keepingCapacity: true)
        }
        while rest.count >= Self.blockLength {
            compress(rest.prefix(Self.blockLength))
            rest = rest.dropFirst(Self.blockLength)
        }
        pending += rest
    }

    /// The digest of everything fed: padded with a one bit, zeros and the length in bits.
    func finalize() -> [UInt8] {
        var copy = self
        let bits = (length &+ UInt64(pending.count)) &* 8
        let zeros = (Self.blockLength * 2 - 9 - pending.count) % Self.blockLength
        var padding = [UInt8](repeating: 0, count: 1 + zeros + 8)
        padding[0] = 0x80
        for index in 0..<8 { padding[zeros + 1 + index] = UInt8(truncatingIfNeeded: bits >> (56 - 8 * index)) }
        copy.update(padding)
        // Each word of the state, big-endian.
        return (0..<Self.digestLength).map { index in
            UInt8(truncatingIfNeeded: copy.state[index / 4] &>> (24 &- 8 &* UInt32(index % 4)))
        }
    }

    /// Runs the compression function over one 64-byte block.
    private mutating func compress(_ block: Slice<UnsafeBufferPointer<UInt8>>) {
        length &+= UInt64(Self.blockLength)
        let bytes = UnsafeBufferPointer(rebasing: block)
        let initial = state
        // The working variables live inside the closures, where they stay in registers; captured
        // from outside, each use would go through memory.
        state &+= Self.roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                for index in 0..<16 {
                    let at = 4 * index
                    schedule[index] =
                        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
                        | UInt32(bytes[at + 3])
                }
                for index in 16..<64 {
                    let early = schedule[index - 15]
                    let late = schedule[index - 2]
                    let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early &>> 3)
                    let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late &>> 10)
                    schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
                }
                var (a, b, c, d) = (initial[0], initial[1], initial[2], initial[3])
                var (e, f, g, h) = (initial[4], initial[5], initial[6], initial[7])
                for index in 0..<64 {
                    let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let first = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
                    let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    (h, g, f, e) = (g, f, e, d &+ first)
                    (d, c, b, a) = (c, b, a, first &+ sum0 &+ majority)
                }
                return SIMD8(a, b, c, d, e, f, g, h)
            }
        }
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    /// The bits rotated right by `count` (below 32).
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        // Masking shifts: the compiler makes one rotate instruction of them.
        self &>> count | self &<< (32 &- count)
    }
}
