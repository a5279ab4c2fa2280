import Foundation
@testable import Fetch

extension SHA256 {
    /// The digest of `data` in lowercase hexadecimal, for checking that a downloaded file is
    /// the body the server sent.
    static func hex(_ data: Data) -> String {
        var hash = SHA256()
        hash.update([UInt8](data))
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
