/// The exclusive lock (`flock`) a download holds on its partial file, taken with a little patience.
///
/// A process started anywhere in this one holds a copy of every open descriptor from its fork until its `exec`
/// (Foundation's `Process` on Linux closes them one by one in the child), and with it the lock of a download that has
/// just closed its file, for a moment. So a lock held elsewhere is tried again every millisecond, up to ``retries``
/// times, before a download is refused as another under way.
enum FileLock {
    static let retries = 50

    /// - Parameter pause: what happens between two tries; a millisecond's sleep by default.
    /// - Returns: whether the lock is taken; `false` when another holder kept it throughout,
    ///   or the file system refuses locks.
    static func take(_ descriptor: Int32, pause: () -> Void = { usleep(1_000) }) -> Bool {
        for _ in 0..<retries {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK else { return false }
            pause()
        }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }
}
