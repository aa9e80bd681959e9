/// Finds where a subscript key path wrote when the write changed nothing (`items[5].done = false`
/// where it was false already): comparing the states before and after cannot tell, since no
/// element differs. The key path itself can: written with another value into a copy of the state,
/// it changes the one element it leads to, which the comparison then finds.
///
/// Only a copy is written, and only through a ``WritableKeyPath`` of a value type — never a
/// reference-writable one, which would write into the app's objects.
enum SubscriptProbe {
    /// The path `keyPath` (printed as `path`) leads to inside `state` (a live state, which `written`
    /// was just written into), or `nil` when no value unlike `written` can be found to write, or
    /// the state cannot be walked.
    static func resolve(_ path: SubscriptedPath, keyPath: AnyKeyPath, state: Any, written: Any, options: CaptureOptions) -> StatePath? {
        guard let writer = keyPath as? any ProbeWritable, writer.writesIntoCopies,
              let first = path.pieces.first, LiveValue.value(at: first, in: state) is any LiveElements else { return nil }
        let writtenTree = StateCapture.capture(written, options: options)
        for alternative in alternatives(to: written, tree: writtenTree, along: path, in: state, options: options) {
            guard let probed = writer.writing(alternative, into: state) else { return nil }
            if let found = SubscriptResolution.resolve(path, liveBefore: state, liveAfter: probed, options: options) { return found }
        }
        return nil
    }

    /// Values to write that differ from `written`: one made from it when its type is a common
    /// one, then the values other elements hold at the same place.
    private static func alternatives(to written: Any, tree: StateValue, along path: SubscriptedPath, in state: Any, options: CaptureOptions) -> some Sequence<Any> {
        let made: Any? = switch written {
        case let flag as Bool: !flag
        case let number as Int: number &+ 1
        case let number as Double: number + 1
        case let text as String: text + "·"
        default: nil
        }
        let found = sequence(state: LeafWalk(path: path, root: state)) { walk in walk.next() }
            .prefix(Self.leavesSearched)
            .lazy
            .filter { StateCapture.capture($0, options: options) != tree }
            .prefix(1)
        return [made].compactMap { $0 } + Array(found)
    }

    /// How many other elements' values are looked at for one unlike the value written, so that a
    /// long list of equal values costs a bounded search.
    private static let leavesSearched = 1_024

    /// The values at the end of a subscripted path, for every element of every collection along it.
    private struct LeafWalk {
        let path: SubscriptedPath
        /// Values still to walk, with the index of the piece that leads on from each.
        var pending: [(value: Any, piece: Int)]

        init(path: SubscriptedPath, root: Any) {
            self.path = path
            self.pending = [(root, 0)]
        }

        mutating func next() -> Any? {
            while let (value, piece) = pending.popLast() {
                guard let reached = LiveValue.value(at: path.pieces[piece], in: value) else { continue }
                if piece == path.pieces.count - 1 { return reached }
                guard let elements = reached as? any LiveElements else { continue }
                for index in (0..<elements.elementCount).reversed() {
                    pending.append((elements.element(at: index), piece + 1))
                }
            }
            return nil
        }
    }
}

/// A key path that can write a value given as `Any` into a copy of a root given as `Any`.
private protocol ProbeWritable {
    /// Whether a write goes into a copy: not through a reference, which the app's objects share.
    var writesIntoCopies: Bool { get }
    /// `root` with `value` written at this key path, or `nil` when either has another type.
    func writing(_ value: Any, into root: Any) -> Any?
}

extension WritableKeyPath: ProbeWritable {
    fileprivate var writesIntoCopies: Bool { !(self is ReferenceWritableKeyPath<Root, Value>) }

    fileprivate func writing(_ value: Any, into root: Any) -> Any? {
        guard var copy = root as? Root, let value = value as? Value else { return nil }
        copy[keyPath: self] = value
        return copy
    }
}
