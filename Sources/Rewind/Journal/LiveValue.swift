import Foundation

/// Walks a live Swift value by a ``StatePath`` — fields by their property names, array elements by
/// index — without capturing it into a tree.
enum LiveValue {
    /// The value at `path` inside `root`, or `nil` when the path does not lead through stored
    /// properties and arrays (a renamed Codable key, a property wrapper, a dictionary).
    static func value(at path: StatePath, in root: Any) -> Any? {
        var current = root
        for component in path.components {
            guard let unwrapped = unwrapped(current) else { return nil }
            switch component {
            case .key(let key):
                guard let child = Mirror(reflecting: unwrapped).children.first(where: { $0.label == key }) else { return nil }
                current = child.value
            case .index(let index):
                guard let elements = unwrapped as? any LiveElements, index >= 0, index < elements.elementCount else { return nil }
                current = elements.element(at: index)
            }
        }
        return unwrapped(current)
    }

    /// The value inside an optional (`nil` for none); any other value as it is.
    private static func unwrapped(_ value: Any) -> Any? {
        guard let optional = value as? any OptionalValue else { return value }
        return optional.wrappedValue.flatMap(unwrapped)
    }
}

/// An optional seen through `Any` (a cast is far cheaper than a `Mirror`).
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { map { $0 } }
}

/// An array seen through `Any`: its elements, and which of them differ from another array's.
protocol LiveElements {
    var elementCount: Int { get }
    func element(at index: Int) -> Any
    /// The index of the one element that differs from `other`'s (an array of the same type and
    /// length), or `nil` when none or several do.
    func onlyElementDiffering(from other: Any, options: CaptureOptions) -> Int?
}

extension Array: LiveElements {
    var elementCount: Int { count }

    func element(at index: Int) -> Any { self[index] }

    func onlyElementDiffering(from other: Any, options: CaptureOptions) -> Int? {
        guard let other = other as? [Element], other.count == count else { return nil }
        // Elements with the same bytes are the same value (copy-on-write buffers and strings that
        // did not change are shared, not copied), so only elements whose bytes differ can have
        // changed. Bytes can differ for equal values too — padding between fields is not copied,
        // a string rebuilt with the same text has another buffer — so each such element is
        // captured and compared, which gives the same answer as comparing the captured states.
        let size = MemoryLayout<Element>.size, stride = MemoryLayout<Element>.stride
        guard size > 0 else { return nil }
        let candidates: [Int] = withUnsafeBufferPointer { old in
            other.withUnsafeBufferPointer { new in
                guard let oldBase = old.baseAddress, let newBase = new.baseAddress, oldBase != newBase else { return [] }
                let oldBytes = UnsafeRawPointer(oldBase), newBytes = UnsafeRawPointer(newBase)
                return (0..<count).filter { memcmp(oldBytes + $0 * stride, newBytes + $0 * stride, size) != 0 }
            }
        }
        let differing = candidates.lazy.filter {
            StateCapture.capture(self[$0], options: options) != StateCapture.capture(other[$0], options: options)
        }.prefix(2)
        return differing.count == 1 ? differing.first : nil
    }
}
