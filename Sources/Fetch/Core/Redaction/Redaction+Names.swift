extension Redaction {
    /// The words that make a header, a form field, a JSON key or a query item secret by default.
    ///
    /// A name is split into words at every character that is not a letter or a digit and
    /// where a lowercase letter is followed by an uppercase one (`api_key`, `api-key`,
    /// `apiKey` and `user[password]` all hold a word of this set). A name also counts when,
    /// written without separators, it contains a word of five letters or more
    /// (`accesstoken`, `clientsecret`, `newpassword`).
    public static let defaultSecretWords: Set<String> = [
        "password", "passwd", "passphrase", "pwd", "secret", "token", "key", "apikey", "auth",
        "authorization", "credential", "credentials", "signature", "pin", "otp", "ssn", "cvv", "cvc",
    ]

    /// Whether the values of the form field, JSON key or query item `name` are hidden: it
    /// is one of ``queryItems`` or ``bodyFields``, or it is named like a secret (see
    /// ``secretWords``).
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

    /// `name` in lowercase words: split at anything but a letter or a digit, and between a
    /// lowercase letter and an uppercase one.
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
