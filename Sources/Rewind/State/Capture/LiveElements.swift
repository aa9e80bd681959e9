import Foundation

/// An array seen through `Any`: its elements, and which of them differ from another array's.
protocol LiveElements {
    var elementCount: Int { get }
    func element(at index: Int) -> Any
    /// The index of the one element that differs from `other`'s (an array of the same type and
    /// length), or `nil` when none or several do.
    /// `changed`, when given, tells for an element whose bytes differ that it surely changed
    /// (`true`), which spares capturing it.
    func onlyElementDiffering(from other: Any, options: CaptureOptions, changed: ((Int) -> Bool)?) -> Int?
    /// This array captured as a tree, taking the trees of the elements it shares with `previous`
    /// (an array of the same type) at its front and back from `previousTree` (its capture), and
    /// capturing only the others; `nil` when that cannot be done safely.
    func capture(reusing previousTree: StateValue, of previous: Any, options: CaptureOptions) -> StateValue?
}

extension Array: LiveElements {
    var elementCount: Int { count }

    func element(at index: Int) -> Any { self[index] }

    func capture(reusing previousTree: StateValue, of previous: Any, options: CaptureOptions) -> StateValue? {
        guard let previous = previous as? [Element], case .array(let previousElements) = previousTree,
              previousElements.count == previous.count, let sample = first ?? previous.first,
              PlainValues.holdsNoObjects(sample) else { return nil }
        // An element with the same bytes as the previous array's at the same place from the front
        // (or from the back) is the same value — its strings and arrays are the same buffers — so
        // its tree is the one already captured. Appending to, removing from or editing one element
        // of a long list then captures one element, not the list.
        let size = MemoryLayout<Element>.size
        guard size > 0 else { return nil }
        let (front, back) = withUnsafeBufferPointer { new in
            previous.withUnsafeBufferPointer { old -> (Int, Int) in
                guard let newBase = new.baseAddress, let oldBase = old.baseAddress else { return (0, 0) }
                let stride = MemoryLayout<Element>.stride
                func same(_ newIndex: Int, _ oldIndex: Int) -> Bool {
                    memcmp(UnsafeRawPointer(newBase) + newIndex * stride, UnsafeRawPointer(oldBase) + oldIndex * stride, size) == 0
                }
                var front = 0
                while front < new.count, front < old.count, same(front, front) { front += 1 }
                var back = 0
                while back < new.count - front, back < old.count - front, same(new.count - 1 - back, old.count - 1 - back) { back += 1 }
                return (front, back)
            }
        }
        var elements = [StateValue](previousElements[..<front])
        elements.reserveCapacity(count)
        for element in self[front..<(count - back)] { elements.append(StateCapture.capture(element, options: options)) }
        elements += previousElements[(previous.count - back)...]
        return .array(elements)
    }

    /// `changed`, when given, tells for an element whose bytes differ that it surely changed
    /// (`true`), which spares capturing it.
    func onlyElementDiffering(from other: Any, options: CaptureOptions, changed: ((Int) -> Bool)?) -> Int? {
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
                return Self.differingElements(UnsafeRawPointer(oldBase), UnsafeRawPointer(newBase), count: count, size: size, stride: stride)
            }
        }
        if candidates.count == 1, let changed, changed(candidates[0]) { return candidates[0] }
        let differing = [Int](candidates.lazy.filter {
            StateCapture.capture(self[$0], options: options) != StateCapture.capture(other[$0], options: options)
        }.prefix(2))
        return differing.count == 1 ? differing.first : nil
    }

    /// The indices of the elements whose bytes differ. Runs of elements are compared a block at a
    /// time — one `memcmp` over a block's bytes, padding included, which only ever adds candidates
    /// — and only a block that differs is looked at element by element.
    private static func differingElements(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer, count: Int, size: Int, stride: Int) -> [Int] {
        let block = Swift.max(1, 4_096 / stride)
        var found: [Int] = []
        var start = 0
        while start < count {
            let end = Swift.min(count, start + block)
            if memcmp(old + start * stride, new + start * stride, (end - start - 1) * stride + size) != 0 {
                for index in start..<end where memcmp(old + index * stride, new + index * stride, size) != 0 {
                    found.append(index)
                }
            }
            start = end
        }
        return found
    }
}
