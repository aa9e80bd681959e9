/// Splits a name into lower-case words, the way people write names in code: at camel case
/// (`accessToken`, `APIKey` → `api`, `key`), at `_`, `-`, `.` and spaces, and between letters and
/// digits (`oauth2Token` → `oauth`, `2`, `token`).
enum NameWords {
    static func split(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        func finishWord() {
            if !current.isEmpty { words.append(current.lowercased()) }
            current = ""
        }
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                finishWord()
                continue
            }
            if let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsCamelWord = character.isUppercase && (previous.isLowercase || previous.isNumber)
                let endsAcronym = character.isUppercase && previous.isUppercase && (next?.isLowercase ?? false)
                let changesClass = character.isNumber != previous.isNumber
                if startsCamelWord || endsAcronym || changesClass { finishWord() }
            }
            current.append(character)
        }
        finishWord()
        return words
    }
}
