import Foundation
import Testing
@testable import Fetch

/// SHA-256 against FIPS 180-4's examples, and HMAC-SHA-256 against RFC 4231's.
@Suite struct SHA256Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var rest = Substring(hex)
        while !rest.isEmpty {
            result.append(UInt8(rest.prefix(2), radix: 16)!)
            rest = rest.dropFirst(2)
        }
        return result
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func digestsMatchTheStandardsExamples(_ message: String, _ expected: String) {
        // Given a message fed in one piece, and the same message fed a byte at a time
        var whole = SHA256()
        whole.update(Array(message.utf8))
        var pieces = SHA256()
        for byte in message.utf8 { pieces.update([byte]) }

        // Then both digests are the standard's
        #expect(hex(whole.finalize()) == expected)
        #expect(hex(pieces.finalize()) == expected)
    }

    @Test func aMillionBytesCrossManyBlocks() {
        // Given one million "a"
        var hash = SHA256()
        hash.update([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))

        // Then the digest is FIPS 180-4's
        #expect(hex(hash.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [
        // RFC 4231 test cases 1, 2, 4 and 6 (a key longer than a block).
        (
            String(repeating: "0b", count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            "4a656665", Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            "0102030405060708090a0b0c0d0e0f10111213141516171819", [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            String(repeating: "aa", count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func authenticationCodesMatchRFC4231(_ key: String, _ message: [UInt8], _ expected: String) {
        #expect(hex(HMACSHA256(key: bytes(key)).authenticate(message)) == expected)
    }

    @Test func aRandomKeyGivesCodesThatDifferPerKey() {
        // Given two authenticators with random keys
        var generator = SystemRandomNumberGenerator()
        let first = HMACSHA256(randomKeyFrom: &generator)
        let second = HMACSHA256(randomKeyFrom: &generator)

        // Then each is stable for one message, and they disagree with each other
        let message = Array("Bearer secret".utf8)
        #expect(first.authenticate(message) == first.authenticate(message))
        #expect(first.authenticate(message) != second.authenticate(message))
        #expect(first.authenticate(message).count == 32)
    }
}
