// `import Fetch` brings Foundation along, and on Linux FoundationNetworking (where URLRequest,
// URLSession and HTTPURLResponse live), so an app's `Enhancer` compiles with `import Fetch` alone
// on every platform. These imports also serve every file of this module.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
