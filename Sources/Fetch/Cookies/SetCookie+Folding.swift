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
        for piece in value.split(separator: ",", omittingEmptySubsequences: false) {
            if let last = strings.last, !piece.prefix(while: { $0 != ";" }).contains("=") {
                strings[strings.count - 1] = last + "," + piece
            } else {
                strings.append(String(piece))
            }
        }
        return strings.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
    }
}
