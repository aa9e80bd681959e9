/// The strings of one block, each stored once and referred to by its position.
///
/// The writer refers to the same few strings in record after record — an event's name, its call
/// site's file and function, a change's path — and hashing a string for a dictionary was a
/// tenth of its cost per event. So each lookup first tries a small direct-mapped cache, keyed by
/// what is cheap to read (a string's length, a static string's address), and hashes only when
/// the cache misses.
struct StringTable {
    private(set) var strings: [String] = []
    private var positions: [String: Int] = [:]
    /// Static strings (call sites) looked up by address, which is cheaper than hashing their text.
    private var staticPositions: [UnsafeRawPointer: Int] = [:]
    /// The bytes the table takes in a block's payload, at most: each string and its length.
    private(set) var byteCount = 0
    private var recent = RecentStrings()

    mutating func reference(_ text: String) -> Int {
        let slot = RecentStrings.slot(of: text)
        if let position = recent.position(of: text, in: slot) { return position }
        let position: Int
        if let known = positions[text] {
            position = known
        } else {
            strings.append(text)
            position = strings.count - 1
            positions[text] = position
            byteCount += text.utf8.count + 5
        }
        recent.remember(text, at: position, in: slot)
        return position
    }

    mutating func reference(_ text: StaticString) -> Int {
        guard text.hasPointerRepresentation else { return reference(text.description) }
        let address = UnsafeRawPointer(text.utf8Start)
        if let position = recent.position(of: address) { return position }
        let position = staticPositions[address] ?? reference(text.description)
        staticPositions[address] = position
        recent.remember(address, at: position)
        return position
    }

    /// Forgets the strings added after the first `count`: a record taken back out of its block.
    mutating func truncate(to count: Int) {
        guard count < strings.count else { return }
        for text in strings[count...] {
            positions[text] = nil
            byteCount -= text.utf8.count + 5
        }
        strings.removeSubrange(count...)
        staticPositions = staticPositions.filter { $0.value < count }
        recent = RecentStrings()
    }

    var isEmpty: Bool { strings.isEmpty }
}

/// The strings a table looked up last: for texts, two per set of lengths alike modulo 32 (the
/// length is the one key a string gives for free; its bytes cost more to read than a hash saves),
/// the newer first; for static strings, one per slot of their address.
private struct RecentStrings {
    private static let slots = 64
    private var texts = [String](repeating: "", count: slots)
    /// Each slot's position in the table; -1 while the slot is empty.
    private var textPositions = [Int](repeating: -1, count: slots)
    private var addresses = [UnsafeRawPointer?](repeating: nil, count: slots)
    private var addressPositions = [Int](repeating: -1, count: slots)

    /// The first of the two slots of `text`'s set.
    static func slot(of text: String) -> Int {
        (text.utf8.count << 1) & (slots - 1)
    }

    func position(of text: String, in slot: Int) -> Int? {
        if textPositions[slot] >= 0, texts[slot] == text { return textPositions[slot] }
        if textPositions[slot + 1] >= 0, texts[slot + 1] == text { return textPositions[slot + 1] }
        return nil
    }

    mutating func remember(_ text: String, at position: Int, in slot: Int) {
        texts.swapAt(slot, slot + 1)
        textPositions.swapAt(slot, slot + 1)
        texts[slot] = text
        textPositions[slot] = position
    }

    private static func slot(of address: UnsafeRawPointer) -> Int {
        // Static strings are at least byte-aligned and often near one another: the low bits vary.
        Int(bitPattern: UInt(bitPattern: address) ^ (UInt(bitPattern: address) >> 6)) & (slots - 1)
    }

    func position(of address: UnsafeRawPointer) -> Int? {
        let slot = Self.slot(of: address)
        return addresses[slot] == address ? addressPositions[slot] : nil
    }

    mutating func remember(_ address: UnsafeRawPointer, at position: Int) {
        let slot = Self.slot(of: address)
        addresses[slot] = address
        addressPositions[slot] = position
    }
}
