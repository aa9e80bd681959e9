@_spi(Tooling) import Rewind

/// The detail pane: everything about the current event, values whole (the pane scrolls both ways)
/// — except a change of a list or an object, shown as what changed in it.
enum DetailLines {
    static func lines(_ step: Page.Step?, page: Page, bookmarks: [UInt64] = []) -> [String] {
        guard let step else { return [] }
        let event = step.event
        var lines = [
            "kind      \(event.kind.word)" + (event.kind.word == event.kind.rawValue ? "" : " (\(event.kind.rawValue))"),
            "source    \(VisibleText.escaped(event.source.description))  (\(VisibleText.escaped(event.source.framework)) \(VisibleText.escaped(event.source.typeName)) #\(event.source.instanceID))",
        ]
        // An app's log message: its name is its level, its description the message.
        let isLog = event.kind == .log
        if !event.name.isEmpty { lines.append((isLog ? "level     " : "name      ") + VisibleText.escaped(event.name)) }
        if isLog {
            lines.append("message   \(VisibleText.escaped(event.description))")
        } else if event.kind == .created, let schema = TypeSchema(recorded: event.description) {
            // The state type the unit was created with: a line per field.
            lines.append("state     \(VisibleText.escaped(schema.typeName.isEmpty ? "(its properties)" : schema.typeName))")
            lines += schema.fields.map { "            \(VisibleText.escaped($0.path)): \(VisibleText.escaped($0.type))" }
        } else if !event.description.isEmpty {
            lines.append("about     \(VisibleText.escaped(event.description))")
        }
        lines.append("time      \(EventTime.iso8601(wallNanoseconds: event.wallNanoseconds))  (\(EventFormatter.elapsed(nanoseconds: EventTime.wallNanoseconds(from: page.startNanoseconds, to: event.wallNanoseconds))))")
        if !event.callSite.isEmpty {
            lines.append("call site \(VisibleText.escaped(event.callSite))" + (event.function.isEmpty ? "" : " in \(VisibleText.escaped(event.function))"))
        }
        if let parent = event.parent, step.causes.isEmpty {
            lines.append("parent    #\(parent) (not readable)")
        }
        // What led here, as `blame --why` says it: each dispatch, with its input, nearest first.
        for (index, cause) in step.causes.enumerated() {
            lines.append((index == 0 ? "caused by " : "          ") + cause.causeText(of: event))
        }
        if let duration = event.duration { lines.append("duration  \(EventFormatter.format(duration))") }
        if !bookmarks.isEmpty {
            lines.append("bookmarks " + bookmarks.map { $0 == event.sequence ? "[#\($0)]" : "#\($0)" }.joined(separator: " "))
        }
        if let group = step.row.group {
            let end = group.endSequence.map { "ends at #\($0)" } ?? "not finished in this recording"
            lines.append("dispatch  \(group.isFolded ? "folded" : "unfolded"); \(end)" + (group.effectCount.map { ", \($0) events" } ?? ""))
        }
        if let dropped = event.dropped { lines.append("dropped   \(event.rowText())  " + "(\(dropped.count))") }
        if let path = event.path { lines.append("path      \(VisibleText.escaped(path))") }
        if event.kind == .change, let old = step.row.oldValue.held, let new = event.value, old.isContainer, new.isContainer {
            // A list or an object changed: what changed in it, not both whole (800 items twice).
            let diff = DiffRenderer(valueWidth: 400).lines(from: old, to: new).map(\.rendered)
            lines.append("changed   " + (diff.first ?? "nothing"))
            lines += diff.dropFirst().map { String(repeating: " ", count: 10) + $0 }
            return lines
        }
        if step.row.oldValue.isKnown { lines.append("old value " + (step.row.oldValue.held?.description ?? "nil")) }
        if let value = event.value {
            let label = event.kind == .change ? "new value" : event.kind == .willDispatch ? "input" : isLog ? "metadata" : "value"
            let tree = value.indentedDescription().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.append(VisibleText.padded(label, to: 9) + " " + (tree.first ?? ""))
            lines += tree.dropFirst().map { String(repeating: " ", count: 10) + $0 }
        }
        return lines
    }
}
