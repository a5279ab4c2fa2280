import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// A redirect from https to http is followed by default and refused by a policy that
/// refuses downgrades.
struct RedirectDowngradeTests {
    /// The step a `policy` takes for a 302 from `from` to `location`.
    static func step(from: String, to location: String, policy: RedirectPolicy) throws -> RedirectStep {
        let url = try #require(URL(string: from))
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": location]))
        return RedirectStep.after(
            response, of: URLRequest(url: url), hop: 0, policy: policy, sensitiveHeaders: [], resendsFile: false)
    }

    @Test func aDowngradeIsFollowedByDefault() throws {
        // Given the default policy
        // When https redirects to http
        let step = try Self.step(from: "https://a.example/login", to: "http://a.example/home", policy: .default)
        // Then the hop is followed
        guard case .follow(let next) = step else {
            Issue.record("not followed: \(step)")
            return
        }
        #expect(next.url?.absoluteString == "http://a.example/home")
    }

    @Test func aPolicyRefusingDowngradesFailsTheHop() throws {
        // Given a policy that refuses downgrades
        let policy = RedirectPolicy.limit(5).refusingDowngrades()
        // When https redirects to http
        let step = try Self.step(from: "https://a.example/login", to: "http://a.example/home", policy: policy)
        // Then the request fails with redirectRefused naming the target, and the limit is kept
        guard case .fail(let error) = step else {
            Issue.record("not refused: \(step)")
            return
        }
        #expect(error.code == .redirectRefused)
        #expect(error.reason.contains("http://a.example/home"))
        #expect(policy.maximumHops == 5)
    }

    @Test func aPolicyRefusingDowngradesFollowsEverythingElse() throws {
        // Given a policy that refuses downgrades
        let policy = RedirectPolicy.default.refusingDowngrades()
        // When http goes to https, and https to https
        let upgrade = try Self.step(from: "http://a.example/", to: "https://a.example/", policy: policy)
        let same = try Self.step(from: "https://a.example/", to: "https://b.example/", policy: policy)
        // Then both are followed
        guard case .follow = upgrade, case .follow = same else {
            Issue.record("\(upgrade), \(same)")
            return
        }
    }
}
