/// Renders what changed between two trees in the `- old` / `+ new` style, showing only the changed
/// fields and elements, each inside its parents, with unchanged siblings folded into one
/// `… N unchanged` line, as swift-custom-dump's `diff` does.
///
/// ```
///   {
///     items: [
///       [1]: {
/// -       done: false
/// +       done: true
///       }
///       … 2 unchanged
///     ]
///     … 1 unchanged
///   }
/// ```
@_spi(Tooling) public struct DiffRenderer: Sendable {
    /// How wide a value may be on one line before it is cut with `…`.
    @_spi(Tooling) public var valueWidth: Int

    /// Creates a renderer.
    @_spi(Tooling) public init(valueWidth: Int = 100) {
        self.valueWidth = valueWidth
    }

    /// One rendered line: its marker and its text.
    @_spi(Tooling) public struct Line: Hashable, Sendable {
        /// Whether the line shows an old value, a new value, or context.
        @_spi(Tooling) public enum Marker: Hashable, Sendable {
            case context, removed, added
        }
        /// The line's marker.
        @_spi(Tooling) public var marker: Marker
        /// The text after the marker, already indented.
        @_spi(Tooling) public var text: String

        /// The line with its `-`, `+` or space marker in front.
        @_spi(Tooling) public var rendered: String {
            switch marker {
            case .context: "  " + text
            case .removed: "- " + text
            case .added: "+ " + text
            }
        }
    }

    /// The diff as lines; empty when the trees are equal.
    @_spi(Tooling) public func lines(from old: StateValue, to new: StateValue) -> [Line] {
        guard old != new else { return [] }
        var lines: [Line] = []
        render(old, new, label: "", depth: 0, into: &lines)
        return lines
    }

    /// The diff as text, one line per change or context line; empty when the trees are equal.
    @_spi(Tooling) public func render(from old: StateValue, to new: StateValue) -> String {
        lines(from: old, to: new).map(\.rendered).joined(separator: "\n")
    }

    private func render(_ old: StateValue, _ new: StateValue, label: String, depth: Int, into lines: inout [Line]) {
        let padding = String(repeating: "  ", count: depth)
        switch (old, new) {
        case (.object(let oldFields), .object(let newFields))
            where oldFields.keys.filter({ newFields[$0] != nil }) == newFields.keys.filter({ oldFields[$0] != nil }):
            lines.append(Line(marker: .context, text: padding + label + "{"))
            var unchanged = 0
            for (key, value) in oldFields where newFields[key] == nil {
                lines.append(Line(marker: .removed, text: padding + "  " + field(key, value)))
            }
            for (key, value) in newFields {
                guard let previous = oldFields[key] else {
                    lines.append(Line(marker: .added, text: padding + "  " + field(key, value)))
                    continue
                }
                if previous == value {
                    unchanged += 1
                } else {
                    render(previous, value, label: StateValue.displayKey(key) + ": ", depth: depth + 1, into: &lines)
                }
            }
            appendFolded(unchanged, padding: padding + "  ", into: &lines)
            lines.append(Line(marker: .context, text: padding + "}"))
        case (.array(let oldElements), .array(let newElements)):
            lines.append(Line(marker: .context, text: padding + label + "["))
            var unchanged = 0
            for step in ArrayAlignment.align(oldElements, newElements) {
                switch step {
                case .keep:
                    unchanged += 1
                case .edit(let oldIndex, let newIndex):
                    render(oldElements[oldIndex], newElements[newIndex], label: "[\(newIndex)]: ", depth: depth + 1, into: &lines)
                case .remove(let oldIndex, _):
                    lines.append(Line(marker: .removed, text: padding + "  [\(oldIndex)]: " + value(oldElements[oldIndex])))
                case .insert(let newIndex):
                    lines.append(Line(marker: .added, text: padding + "  [\(newIndex)]: " + value(newElements[newIndex])))
                }
            }
            appendFolded(unchanged, padding: padding + "  ", into: &lines)
            lines.append(Line(marker: .context, text: padding + "]"))
        default:
            lines.append(Line(marker: .removed, text: padding + label + value(old)))
            lines.append(Line(marker: .added, text: padding + label + value(new)))
        }
    }

    private func appendFolded(_ count: Int, padding: String, into lines: inout [Line]) {
        guard count > 0 else { return }
        lines.append(Line(marker: .context, text: padding + "… \(count) unchanged"))
    }

    private func field(_ key: String, _ value: StateValue) -> String {
        StateValue.displayKey(key) + ": " + self.value(value)
    }

    private func value(_ value: StateValue) -> String {
        value.compactDescription(limit: valueWidth)
    }
}
