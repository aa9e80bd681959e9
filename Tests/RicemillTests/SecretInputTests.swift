import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import Ricemill
import Testing
import TestSupport

/// An input named like a secret keeps its name and hides its value (issue 63).
@Suite("Ricemill: an input named like a secret")
struct RicemillSecretInputTests {
    final class Session: Machine<Session> {
        typealias Output = Store

        final class Input: BindableInputType {
            let setToken = PassthroughSubject<String, Never>()
            let rename = PassthroughSubject<String, Never>()
        }

        final class Store: StoredOutputType {
            @Published var token = ""
            @Published var name = ""
        }

        struct Extra: ExtraType {}

        convenience init() {
            self.init(input: Input(), store: Store(), extra: Extra())
        }

        static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
            var cancellables: [AnyCancellable] = []
            input.setToken.assign(to: \.token, on: store).store(in: &cancellables)
            input.rename.assign(to: \.name, on: store).store(in: &cancellables)
            return Polished(cancellables: cancellables)
        }
    }

    @Test("input.setToken.send(\"s3cr3t\") is recorded under the name setToken with its value <redacted>, in every event and in the journal")
    func secretInputKeepsItsName() throws {
        let logger = InMemoryLogger()
        let session = Session()
        session.set(logger: logger)
        session.input.setToken.send("s3cr3t")
        session.input.rename.send("ada")
        let lines = logger.eventsInSequenceOrder.map(summary)
        #expect(!lines.joined(separator: "\n").contains("s3cr3t"), "\(lines)")
        #expect(lines.contains("willDispatch setToken <redacted> (String)"), "\(lines)")
        #expect(lines.contains(#"willDispatch rename "ada""#), "\(lines)")
        #expect(!lines.contains { $0.contains("…") }, "no name is hidden: \(lines)")

        let directory = TemporaryDirectory()
        let path = directory.file("session.rewind")
        let journal = try JournalLogger(path: path)
        let recorded = Session()
        recorded.set(logger: journal)
        recorded.input.setToken.send("s3cr3t")
        journal.close()
        let events = Array(try JournalReader(path: path).events())
        #expect(
            events.contains { $0.name == "setToken" && $0.value?.description.contains("redacted") == true },
            "\(events.map { "\($0.kind) \($0.name) \(String(describing: $0.value))" })")
        #expect(!events.contains { $0.name.contains("…") })
    }
}
