import Foundation
@_spi(Tooling) @testable import Rewind
@_exported import TestSupport

extension JournalReader {
    /// Every readable event, in file order.
    func allEvents() -> [RecordedEvent] { Array(events()) }
}
