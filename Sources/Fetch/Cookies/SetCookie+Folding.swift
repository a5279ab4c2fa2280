extension SetCookie {
    /// The set-cookie strings of one field value that may hold several: URLSession joins
    /// repeated `Set-Cookie` fields with `", "`, and a comma also appears inside `Expires`
    /// dates (`Wed, 01 Jan 2099 ...`).
    ///
    /// A comma starts a new cookie when the text after it, up to the next `;` or `,`, holds an
    /// `=` (a `name=value` pair); a date's comma is followed by `01 Jan 2099 ...`, which holds
    /// none. A cookie value that itself holds `,` followed by `x=y` is split there: separate
    /// fields cannot be told apart from one such value once URLSession has joined them.
    static func split(folded value: String) -> [String] {
        var strings: [String] = []
        var start = value.startIndex
        var index = value.startIndex
        while let comma = value[index...].firstIndex(of: ",") {
            let after = value.index(after: comma)
            let segmentEnd = value[after...].firstIndex(where: { $0 == ";" || $0 == "," }) ?? value.endIndex
            if value[after..<segmentEnd].contains("=") {
                strings.append(String(value[start..<comma]))
                start = after
            }
            index = after
        }
        strings.append(String(value[start...]))
        return strings.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
    }
}
