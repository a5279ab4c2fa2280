/// The exclusive lock (`flock`) a download holds on its partial file, taken with a little
/// patience.
///
/// A process started anywhere in this one holds a copy of every open descriptor from its
/// fork until its `exec` (Foundation's `Process` on Linux closes them one by one in the
/// child), and with that copy the lock of a download that has just closed its file. Measured
/// on Linux with one thread starting `/bin/true` in a loop: a lock taken right after the
/// last holder closed its file failed 16 to 637 times in 20,000, and was free again within
/// 1.2 ms (3.5 ms with both cores busy). So a lock held elsewhere is tried again every
/// millisecond, up to ``retries`` times, before a download is refused as another under way:
/// such a refusal comes about 50 ms later than it would at once.
enum FileLock {
    /// How many times a lock held elsewhere is tried again, a pause apart.
    static let retries = 50

    /// Takes the exclusive lock on `descriptor`.
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
