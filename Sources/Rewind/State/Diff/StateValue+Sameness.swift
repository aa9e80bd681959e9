import Foundation

extension StateValue {
    /// Whether two trees are the same value, telling at once — without walking them — the common
    /// case of trees that share their storage (a list's unchanged elements, reused from the last
    /// capture). Equal bits are the same case with the same payload: the same string, the same
    /// array or object buffer, the same number.
    @inline(__always)
    func isSame(as other: StateValue) -> Bool {
        isBitwiseIdentical(to: other) || self == other
    }

    /// Whether walking the two trees for changes can be skipped: they share storage, or they are
    /// equal leaves. Two containers that do not share storage are walked even when equal — the
    /// walk finds nothing — rather than compared whole first and then walked again.
    @inline(__always)
    func needsNoWalk(against other: StateValue) -> Bool {
        if isBitwiseIdentical(to: other) { return true }
        return !(isContainer && other.isContainer) && self == other
    }

    private func isBitwiseIdentical(to other: StateValue) -> Bool {
        withUnsafeBytes(of: self) { left in
            withUnsafeBytes(of: other) { right in
                memcmp(left.baseAddress!, right.baseAddress!, MemoryLayout<StateValue>.size) == 0
            }
        }
    }
}
