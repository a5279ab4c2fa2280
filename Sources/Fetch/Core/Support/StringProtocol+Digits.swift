extension StringProtocol {
    /// Whether this is one or more ASCII digits and nothing else (no sign, space or other
    /// script's digits): the form of every number a header field carries.
    var isASCIIDigits: Bool { !isEmpty && utf8.allSatisfy { (0x30...0x39).contains($0) } }
}
