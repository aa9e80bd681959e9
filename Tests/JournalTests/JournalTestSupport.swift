import Foundation
@testable import Rewind
@_exported import TemporaryFiles

extension JournalReader {
    /// Every readable event, in file order.
    func allEvents() -> [RecordedEvent] { Array(events()) }
}
