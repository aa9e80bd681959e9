/// How Rewind names a Swift type wherever it shows one — an event's source, a recorded state's
/// type and its fields' types.
package enum TypeName {
    /// A type's name without module names, keeping nesting (`ViewModel.State`) and generic arguments
    /// (`Substance<FlaskSample.FeedState>`).
    package static func short(_ type: Any.Type) -> String {
        var full = String(reflecting: type)
        // Types declared inside a function print `(unknown context at $…).`: not a name anyone wrote.
        while let start = full.range(of: "(unknown context at "), let end = full[start.upperBound...].range(of: ").") {
            full.removeSubrange(start.lowerBound..<end.upperBound)
        }
        var result = ""
        var name = ""
        func flush() {
            // A qualified name's first component is its module.
            if !name.hasPrefix("."), let dot = name.firstIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
            result += name
            name = ""
        }
        for character in full {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                name.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}
