// `import Fetch` brings Foundation along, and on Linux FoundationNetworking (URLRequest, URLSession), so an app's
// `Enhancer` compiles with `import Fetch` alone on every platform; these imports serve this module too.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
