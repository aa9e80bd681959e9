/// Short names for the timeline's lanes that stay apart: `GitHubSearchAPIStream#4` and
/// `GitHubSearchViewStream#5` cut to 9 cells would both read `GitHubSe…`, so names that collide
/// keep their distinguishing words whole and shorten the words they share to initials:
/// `GHSAPISt…` and `GHSViewS…`.
package enum LaneNames {
    /// Each name fitted to `width` cells, distinct where the names are.
    package static func shortened(_ names: [String], to width: Int) -> [String] {
        var short = names.map { CellWidth.fitted($0, to: width) }
        let groups = Dictionary(grouping: names.indices, by: { short[$0] }).values.filter { $0.count > 1 }
        for group in groups {
            let split = group.map { Self.words(of: names[$0]) }
            for (member, index) in group.enumerated() {
                let own = split[member]
                // The first word where this name parts from another in the group.
                let parting = group.indices.filter { $0 != member }.map { other in
                    zip(own, split[other]).prefix { $0 == $1 }.count
                }.min() ?? 0
                let shared = own.prefix(parting).compactMap { $0.first }.map(String.init).joined()
                let candidate = CellWidth.fitted(shared + own.dropFirst(parting).joined(), to: width)
                short[index] = candidate
            }
        }
        return short
    }

    /// `GitHubSearchAPIStream#4` → `Git`, `Hub`, `Search`, `API`, `Stream`, `#4`: camel-case words,
    /// an acronym as one word, and the instance number.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord = character == "#"
                || (character.isUppercase && (previous?.isLowercase == true || (previous?.isUppercase == true && next?.isLowercase == true)))
            if startsWord && !current.isEmpty && !current.hasPrefix("#") {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
