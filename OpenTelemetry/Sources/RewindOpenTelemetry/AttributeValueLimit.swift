/// The cap on an attribute's text (``OpenTelemetryConfiguration/attributeValueLimit``): a value
/// longer than the limit is cut, on a character boundary, and ends with a marker that says how
/// long it was — `…[cut: 182340 bytes]` — so that a reader knows the value is not whole. The cut
/// value and its marker together fit the limit.
///
/// Receivers cap values too (an OpenTelemetry Collector at its configured limit, most backends
/// near 32 KiB) but silently; a recorded state can be megabytes.
struct AttributeValueLimit: Sendable {
    /// The most UTF-8 bytes a value may take, marker included.
    let bytes: Int

    /// The smallest limit taken: room for the marker and a little of the value.
    static let minimum = 64

    init(bytes: Int) {
        self.bytes = max(Self.minimum, bytes)
    }

    /// `text`, or its start and the marker when it is longer than the limit.
    func capped(_ text: String) -> String {
        let length = text.utf8.count
        guard length > bytes else { return text }
        let marker = "…[cut: \(length) bytes]"
        let room = bytes - marker.utf8.count
        var kept = 0
        var end = text.startIndex
        for character in text {
            let size = character.utf8.count
            if kept + size > room { break }
            kept += size
            end = text.index(after: end)
        }
        return text[..<end] + marker
    }
}
