import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch
import FetchTesting

/// A ``SpyPerformer`` that answers the example's three calls the way httpbin would, in
/// this process, so the example runs with no network at all.
enum OfflineServer {
    /// The base URL the offline calls use; nothing is ever sent there.
    static let baseURL = URL(string: "http://httpbin.offline")!

    /// A spy whose matcher plays httpbin's `/get`, `/post` and `/status/<code>`.
    static func make() -> SpyPerformer {
        SpyPerformer { request in
            do {
                return try answer(request.makeURLRequest())
            } catch {
                return .failure(error)
            }
        }
    }

    private static func answer(_ sent: URLRequest) throws -> SpyPerformer.Answer? {
        guard let url = sent.url else { return nil }
        let headers = (sent.allHTTPHeaderFields ?? [:]).merging(["User-Agent": "Fetch/\(Session.version)"]) { own, _ in
            own
        }
        switch url.path {
        case "/get":
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let args = Dictionary(items.map { ($0.name, $0.value ?? "") }) { (_: String, last: String) in last }
            return .response(try .json(Echo(args: args, headers: headers)))
        case "/post":
            let user = try JSONDecoder().decode(NewUser.self, from: sent.httpBody ?? Data())
            return .response(try .json(Created(json: user)))
        case let path where path.hasPrefix("/status/"):
            return .status(Int(path.dropFirst("/status/".count)) ?? 400)
        default:
            return .status(404)
        }
    }
}
