extension SetCookie {
    /// The set-cookie strings of one field value, whose `Set-Cookie` fields URLSession joined with `", "`; commas also
    /// appear in `Expires` dates and values, so only `", "` followed by a `name=value` pair (an `=` before the next
    /// `;`) starts a new cookie. A value holding `", x=y"` is split there: once joined, nothing tells them apart.
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
