extension StringProtocol {
    /// One or more ASCII digits and nothing else (no sign, space or other script's digits), as header numbers are.
    var isASCIIDigits: Bool { !isEmpty && utf8.allSatisfy { (0x30...0x39).contains($0) } }
}
