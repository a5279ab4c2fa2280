import Foundation

/// Keeps this process's connections out of the child processes the tests start.
///
/// On Linux, Foundation's `Process` closes in the child each descriptor it saw open when it looked, just before it
/// spawns. A socket another thread opens in between (libcurl's have no close-on-exec flag) is inherited, and the
/// child then holds that connection open as long as it lives, whatever this process does with it: a test that waits
/// for the server to see a cancelled transfer end waits for the child instead. A descriptor held at the top of the
/// table makes `Process` close every number below it in every child.
enum ChildDescriptors {
    /// Call before starting a child process; the first call opens the placeholder, later ones do nothing.
    static func closeInChildren() {
        #if os(Linux)
        _ = placeholder
        #endif
    }

    #if os(Linux)
    /// The placeholder's number: below the descriptor limit and at most 4095, so that each spawn closes a few thousand
    /// numbers rather than the whole table (this process never uses that many); -1 when none could be opened.
    private static let placeholder: Int32 = {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        let top = Int32(min(limit.rlim_cur, 4096)) - 1
        // Already open: it is the top then, and must not be replaced.
        if fcntl(top, F_GETFD) != -1 { return top }
        let null = open("/dev/null", O_RDONLY)
        guard null >= 0 else { return -1 }
        defer { close(null) }
        return dup2(null, top)
    }()
    #endif
}
