import Fetch

/// A user as the example API receives it.
struct NewUser: Codable, Equatable, Sendable {
    let name: String
    let languages: [String]
}

/// What httpbin's `/get` sends back: the query it received, and the headers.
struct Echo: Codable, Parsable {
    let args: [String: String]
    let headers: [String: String]
}

/// What httpbin's `/post` sends back for a JSON body: the body as the server read it.
struct Created: Codable, Parsable {
    let json: NewUser
}
