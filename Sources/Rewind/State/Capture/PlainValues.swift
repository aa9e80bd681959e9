/// Whether a value holds no class instances, judged from one sample of its type: an element of an
/// array whose bytes did not change is then the same value. An object inside an element can change
/// without its bytes changing, so such elements are always captured. (A case of an enum, or an
/// optional, the sample does not show could still hold one; such a write is not a change event,
/// and the writer's periodic capture of the real state brings it into the journal.)
enum PlainValues {
    private static let verdicts = Locked<[ObjectIdentifier: Bool]>([:])

    static func holdsNoObjects(_ sample: Any) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: sample))
        if let known = verdicts.withLock({ $0[type] }) { return known }
        let verdict = check(sample, depth: 0)
        verdicts.withLock { $0[type] = verdict }
        return verdict
    }

    private static func check(_ value: Any, depth: Int) -> Bool {
        guard depth < 16 else { return false }
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle != .class && mirror.children.allSatisfy { check($0.value, depth: depth + 1) }
    }
}
