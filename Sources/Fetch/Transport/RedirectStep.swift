/// What a ``Session`` does with one redirect, once its ``RedirectPolicy`` and Fetch's rules have spoken.
enum RedirectStep {
    /// Sent by URLSession on the same task.
    case follow(URLRequest)
    /// Send the request as a new task: URLSession drops the body of a request the redirect delegate hands back.
    case resend(URLRequest)
    /// The 3xx response is the result.
    case stop
    case fail(FetchError)

    /// Decides a redirect of `current`, reading `Location` itself (URLSession on Linux makes a `file://` one a path on
    /// the same origin). Runs the policy, so with no lock held: it may do anything, cancel its request too. `hop`
    /// counts earlier redirects; `resendsFile`: the body is a file; `cookies`, with the redirect's own stored already,
    /// put the store's cookies for the next URL in the hop the policy sees.
    static func after(
        _ response: HTTPURLResponse, of current: URLRequest, hop: Int, policy: RedirectPolicy,
        sensitiveHeaders: Set<String>, resendsFile: Bool, cookies: CallCookies? = nil
    ) -> RedirectStep {
        let method = HTTPMethod(rawValue: current.httpMethod ?? "GET")
        func fail(_ reason: String, _ code: FetchError.Code = .redirectRefused) -> RedirectStep {
            .fail(FetchError(code, reason: reason, method: method, url: current.url))
        }
        guard let location = response.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: response.url ?? current.url)?.absoluteURL
        else {
            return fail("redirect \(response.statusCode) without a usable Location")
        }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return fail("redirect to \(target.absoluteString) refused: only http and https are followed")
        }
        if policy.refusesDowngrades, scheme == "http", current.url?.scheme?.lowercased() == "https" {
            return fail("redirect from https to \(target.absoluteString) refused: the policy refuses downgrades")
        }
        var next = RedirectPolicy.nextRequest(
            after: current, to: target, status: response.statusCode, sensitiveHeaders: sensitiveHeaders
        )
        cookies?.prepare(hop: &next, after: current)
        let chosen: URLRequest
        switch policy.decide(RedirectPolicy.Hop(from: current, to: next, status: response.statusCode, index: hop)) {
        case .stop:
            return .stop
        case .refuse:
            return fail("redirect to \(target.absoluteString) refused by the policy")
        case .follow: chosen = next
        case .followWith(let custom):
            do { try HeaderRules.validate(custom) } catch {
                return (error as? FetchError).map { .fail($0) } ?? fail("\(error)")
            }
            chosen = custom
        }
        // After the policy, so that a policy that stops (such as `.never`) returns the 3xx.
        if hop >= policy.maximumHops {
            return fail("more than \(policy.maximumHops) redirects", .tooManyRedirects)
        } else if chosen.httpBodyStream != nil {
            return fail("redirect \(response.statusCode) refused: a streamed body cannot be sent again")
        } else {
            // A hop that keeps the method keeps the body (307, 308, and 301/302 of a PUT).
            let keepsFile = resendsFile && chosen.httpMethod == current.httpMethod && method != .get && method != .head
            return chosen.httpBody?.isEmpty == false || keepsFile ? .resend(chosen) : .follow(chosen)
        }
    }
}
