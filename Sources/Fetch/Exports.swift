// On Linux, URLRequest, URLSession and HTTPURLResponse live in FoundationNetworking, not
// Foundation. Fetch's API names URLRequest (Enhancer, Request.adjust, Response.urlRequest),
// so it re-exports FoundationNetworking: `import Fetch` alone is enough to write an Enhancer
// on Linux, as on Apple platforms, where those types are in Foundation.
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
