// Fetch's API names Foundation types (URL, Data, URLRequest), so `import Fetch` brings them
// along. On Linux, URLRequest, URLSession and HTTPURLResponse live in FoundationNetworking,
// not Foundation, so it is re-exported too: an app's `Enhancer` compiles with `import Fetch`
// alone on Linux as on Apple platforms. These imports also serve every file of this module,
// which therefore imports neither itself.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
