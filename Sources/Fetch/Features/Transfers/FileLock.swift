/// The exclusive lock (`flock`) a download holds on its partial file, taken with a little patience: a child process
/// holds a copy of every descriptor from its fork until its `exec` (Foundation's `Process` on Linux closes them one by
/// one), and with it, for a moment, the lock of a download that just closed its file. So a lock held elsewhere is
/// tried again every millisecond, up to ``retries`` times, before a download is refused as another under way.
enum FileLock {
    static let retries = 50

    /// Whether the lock is taken (not when held throughout, or locks are refused); `pause` runs between two tries.
    static func take(_ descriptor: Int32, pause: () -> Void = { usleep(1_000) }) -> Bool {
        for _ in 0..<retries {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK else { return false }
            pause()
        }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }
}
