import Foundation

/// Keeps this process's connections out of the child processes the tests start.
///
/// On Linux, Foundation's `Process` closes in the child every number from 3 up to the highest descriptor open when it
/// looks, just before it spawns. A socket another thread opens in between at a higher number (libcurl 7.88's have no
/// close-on-exec flag) is inherited, and the child then holds that connection open as long as it lives, whatever this
/// process does with it: a test that waits for the server to see a cancelled transfer end waits for the child
/// instead. A descriptor held above any number this process opens makes `Process` close every number below it.
enum ChildDescriptors {
    /// Call before starting a child process; the first call opens the placeholder, later ones do nothing.
    static func closeInChildren() {
        #if os(Linux)
        _ = placeholder
        #endif
    }

    #if os(Linux)
    /// The placeholder's number: the soft limit less one, at most 4095, so that each spawn closes a few thousand
    /// numbers rather than the whole table (this process never uses that many); -1 when none could be opened.
    private static let placeholder: Int32 = {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        let top = Int32(min(limit.rlim_cur, 4096)) - 1
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard null >= 0, null < top else { return null }
        defer { close(null) }
        // Never replaces an open descriptor: the lowest free number from `top` on, or -1 past the limit (the table
        // reaches `top` then anyway). Close-on-exec: `Process` still sees it, and no child of any kind gets it.
        return fcntl(null, F_DUPFD_CLOEXEC, top)
    }()
    #endif
}
