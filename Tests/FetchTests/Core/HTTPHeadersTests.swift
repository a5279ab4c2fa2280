import Testing
import Fetch

struct HTTPHeadersTests {
    @Test func lookupIgnoresCase() {
        // Given a field written in mixed case
        let headers: HTTPHeaders = ["Content-Type": "application/json"]
        // When it is looked up in other casings
        // Then every lookup finds it
        #expect(headers.first("content-type") == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.contains("cOnTeNt-TyPe"))
        #expect(!headers.contains("Content-Length"))
        #expect(headers.first("Accept") == nil)
    }

    @Test func repeatedFieldsAreKeptInOrder() {
        // Given two Set-Cookie fields in different casings and another field between them
        var headers = HTTPHeaders()
        headers.add("Set-Cookie", "a=1")
        headers.add("Accept", "*/*")
        headers.add("set-cookie", "b=2")
        // When the values are read
        // Then both are kept, in order; the subscript joins them
        #expect(headers.count == 3)
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers["Set-Cookie"] == "a=1, b=2")
        #expect(headers.first("set-cookie") == "a=1")
        #expect(headers.map(\.name) == ["Set-Cookie", "Accept", "set-cookie"])
    }

    @Test func setReplacesEveryFieldOfThatNameInPlace() {
        // Given a repeated field between others
        var headers = HTTPHeaders([("A", "1"), ("X-Tag", "one"), ("B", "2"), ("x-tag", "two")])
        // When it is set
        headers.set("X-TAG", "three")
        // Then one field remains, where the first one was, with its original name
        #expect(headers.values(for: "x-tag") == ["three"])
        #expect(headers.map(\.name) == ["A", "X-Tag", "B"])
    }

    @Test func setAddsAFieldThatWasNotThere() {
        // Given no such field
        var headers: HTTPHeaders = ["A": "1"]
        // When it is set, through the method and the subscript
        headers.set("B", "2")
        headers["C"] = "3"
        // Then both are appended
        #expect(headers.map(\.name) == ["A", "B", "C"])
        #expect(headers["c"] == "3")
    }

    @Test func removeAndNilSubscriptDropEveryField() {
        // Given a repeated field and another
        var headers = HTTPHeaders([("Tag", "1"), ("Keep", "k"), ("TAG", "2")])
        var viaSubscript = headers
        // When it is removed, once by method and once by assigning nil
        headers.remove("tag")
        viaSubscript["Tag"] = nil
        // Then only the other field is left
        #expect(headers.map(\.name) == ["Keep"])
        #expect(viaSubscript.map(\.name) == ["Keep"])
    }

    @Test func mergingDefaultsKeepsFieldsAlreadyNamed() {
        // Given headers and defaults that overlap in another casing
        let headers: HTTPHeaders = ["accept": "text/plain"]
        let defaults: HTTPHeaders = ["Accept": "*/*", "User-Agent": "Fetch"]
        // When the defaults are merged
        let merged = headers.merging(defaults: defaults)
        // Then the request's own value wins and the missing default is added
        #expect(merged.values(for: "Accept") == ["text/plain"])
        #expect(merged["user-agent"] == "Fetch")
        #expect(merged.count == 2)
    }

    @Test func emptyHeadersAndDescription() {
        // Given empty and filled headers
        let empty = HTTPHeaders()
        let filled: HTTPHeaders = ["A": "1", "B": "2"]
        // When described
        // Then the description is one `Name: value` line per field
        #expect(empty.isEmpty)
        #expect(!filled.isEmpty)
        #expect(filled.description == "A: 1\nB: 2")
    }

    @Test func namesThatOnlyLookAlikeAreDifferent() {
        // Given a name with a non-ASCII letter whose lowercase is another length
        let headers: HTTPHeaders = ["X-İd": "1"]
        // When looked up by a plain ASCII name
        // Then it does not match
        #expect(!headers.contains("x-id"))
    }

    @Test func onlyLettersFoldTheirCase() {
        // Given names that differ only where bytes differ by the case bit: letters, brackets, non-ASCII
        let headers: HTTPHeaders = ["X-[A]": "brackets", "X-Évènement": "accented"]
        // When they are looked up with that bit flipped
        // Then letters match in any case, brackets do not match braces, and non-ASCII letters fold as Unicode does
        #expect(headers.first("x-[a]") == "brackets")
        #expect(headers.first("X-{A}") == nil && headers.first("x-{a}") == nil)
        #expect(headers.first("x-évènement") == "accented")
        #expect(headers.first("X-ÉVÈNEMENT") == "accented")
        #expect(headers.first("X-Evenement") == nil)
    }
}
