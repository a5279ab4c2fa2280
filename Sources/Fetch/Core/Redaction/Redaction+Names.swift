extension Redaction {
    /// The words that make a name secret by default, split into words (`api_key`, `apiKey`, `user[password]`) or,
    /// for one of five letters or more, anywhere in it (`accesstoken`); see <doc:ComposingLayers>.
    public static let defaultSecretWords: Set<String> = [
        "password", "passwd", "passphrase", "pwd", "secret", "token", "key", "apikey", "auth",
        "authorization", "credential", "credentials", "signature", "pin", "otp", "ssn", "cvv", "cvc",
    ]

    /// Whether the values of the form field, JSON key or query item `name` are hidden: it is in
    /// ``queryItems`` or ``bodyFields``, or named like a secret (see ``secretWords``).
    public func hides(name: String) -> Bool {
        let lowercased = name.lowercased()
        return queryItems.contains(lowercased) || bodyFields.contains(lowercased) || isNamedLikeSecret(name)
    }

    /// Whether `name` holds one of ``secretWords`` (see ``defaultSecretWords``).
    func isNamedLikeSecret(_ name: String) -> Bool {
        guard !secretWords.isEmpty else { return false }
        let words = Self.words(of: name)
        if words.contains(where: secretWords.contains) { return true }
        let joined = words.joined()
        return secretWords.contains { $0.count >= 5 && joined.contains($0) }
    }

    private static func words(of name: String) -> [String] {
        var spaced = ""
        var previousWasLower = false
        for character in name {
            if character.isUppercase, previousWasLower { spaced += " " }
            spaced += character.isLetter || character.isNumber ? character.lowercased() : " "
            previousWasLower = character.isLowercase
        }
        return spaced.split(separator: " ").map(String.init)
    }
}
