extension SetCookie {
    /// The set-cookie strings of one field value that may hold several: URLSession joins
    /// repeated `Set-Cookie` fields with `", "`, and a comma also appears inside `Expires`
    /// dates (`Wed, 01 Jan 2099 ...`) and values (`b,az=qux`).
    ///
    /// Only `", "` can join two fields, so only `", "` followed by a `name=value` pair (an `=`
    /// before the next `;`) starts a new cookie; a date's `", "` is followed by
    /// `01 Jan 2099 ...`, which holds none, and a comma with no space after it never splits.
    /// A value that itself holds `", "` followed by `x=y` is split there: separate fields
    /// cannot be told apart from one such value once URLSession has joined them.
    static func split(folded value: String) -> [String] {
        var strings: [String] = []
        for piece in value.components(separatedBy: ", ") {
            if let last = strings.last, !piece.prefix(while: { $0 != ";" }).contains("=") {
                strings[strings.count - 1] = last + ", " + piece
            } else {
                strings.append(piece)
            }
        }
        return strings.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
    }
}
