import CombineOperators
import Foundation
import Unio

/// A contacts search as a Unio user writes it, with two streams: a view stream (a debounced search,
/// favorites, a secret API key) and a directory API stream that answers later on the scheduler
/// into three of the view's state relays at once (the contacts, the visible rows through
/// `combineLatest`, the favorites count).
///
/// `plantedBug` makes the search look at names only, not companies (the bug a replay must find).
enum Contacts {
    struct Contact: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var company: String
        var isFavorite: Bool
    }

    static let companies = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark"]

    /// The directory: answers a fetch with `count` contacts after a latency, nothing without a key.
    final class DirectoryAPIStream: UnioStream<DirectoryAPIStream>, @unchecked Sendable {
        // Unchecked: a stream's wrappers and state are thread-safe; see `PrimitiveStream`.
        typealias State = NoState

        struct Input: InputType {
            let fetch = PublishRelay<String>()
        }

        struct Output: OutputType {
            let contacts: Observable<[Contact]>
        }

        struct Extra: ExtraType {
            let scheduler: SessionScheduler
            let count: Int
        }

        static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
            let extra = dependency.extra
            let contacts = dependency.inputObservables.fetch
                .delay(.milliseconds(400), scheduler: extra.scheduler)
                .map { key -> [Contact] in
                    guard !key.isEmpty else { return [] }
                    return (1...extra.count).map { id in
                        Contact(id: id, name: "person \(String(format: "%04d", (id * 7_919) % 10_000))", company: Contacts.companies[id % Contacts.companies.count], isFavorite: false)
                    }
                }
            return Output(contacts: contacts)
        }
    }

    /// The search screen.
    final class ContactsViewStream: UnioStream<ContactsViewStream>, @unchecked Sendable {
        // Unchecked: a stream's wrappers and state are thread-safe; see `PrimitiveStream`.
        struct Input: InputType {
            let searchText = PublishRelay<String>()
            let toggleFavorite = PublishRelay<Int>()
            let apiKey = PublishRelay<String>()
            let refresh = PublishRelay<Void>()
        }

        struct Output: OutputType {
            let visibleContacts: BehaviorRelay<[Contact]>
            let favoritesCount: BehaviorRelay<Int>
        }

        struct State: StateType {
            let contacts = BehaviorRelay<[Contact]>(value: [])
            let visibleContacts = BehaviorRelay<[Contact]>(value: [])
            let favoritesCount = BehaviorRelay<Int>(value: 0)
            let query = BehaviorRelay<String>(value: "")
        }

        /// The key the app was given: kept by the screen, never part of the state.
        final class KeyStore: @unchecked Sendable {
            // Unchecked: written and read on the stream's inputs, one at a time.
            var key = ""
        }

        struct Extra: ExtraType {
            let api: DirectoryAPIStream
            let scheduler: SessionScheduler
            let keys = KeyStore()
            let plantedBug: Bool
        }

        static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
            let state = dependency.state
            let extra = dependency.extra
            let inputs = dependency.inputObservables

            inputs.apiKey
                .subscribe(onNext: { extra.keys.key = $0 })
                .disposed(by: disposeBag)
            inputs.refresh
                .subscribe(onNext: { extra.api.input.fetch(extra.keys.key) })
                .disposed(by: disposeBag)
            extra.api.output.contacts
                .bind(to: state.contacts)
                .disposed(by: disposeBag)
            inputs.searchText
                .debounce(.milliseconds(300), scheduler: extra.scheduler)
                .bind(to: state.query)
                .disposed(by: disposeBag)
            inputs.toggleFavorite
                .subscribe(onNext: { id in
                    var contacts = state.contacts.value
                    guard let index = contacts.firstIndex(where: { $0.id == id }) else { return }
                    contacts[index].isFavorite.toggle()
                    state.contacts.accept(contacts)
                })
                .disposed(by: disposeBag)
            Observable.combineLatest(state.contacts, state.query) { contacts, query -> [Contact] in
                guard !query.isEmpty else { return contacts }
                return contacts.filter { $0.name.contains(query) || (!extra.plantedBug && $0.company.contains(query)) }
            }
            .bind(to: state.visibleContacts)
            .disposed(by: disposeBag)
            state.contacts
                .map { $0.filter(\.isFavorite).count }
                .bind(to: state.favoritesCount)
                .disposed(by: disposeBag)

            return Output(visibleContacts: state.visibleContacts, favoritesCount: state.favoritesCount)
        }
    }

    /// The app: the view stream and its API stream on one scheduler.
    final class App {
        let view: ContactsViewStream
        let api: DirectoryAPIStream

        init(scheduler: SessionScheduler, contacts: Int = 750, plantedBug: Bool = false) {
            api = DirectoryAPIStream(input: .init(), state: .init(), extra: .init(scheduler: scheduler, count: contacts))
            view = ContactsViewStream(input: .init(), state: .init(), extra: .init(api: api, scheduler: scheduler, plantedBug: plantedBug))
        }
    }

    /// A session as a user types through it: `inputs` inputs in all.
    static func session(_ app: App, scheduler: VirtualTimeScheduler, inputs: Int = 2_000) {
        let input = app.view.input
        input.apiKey("key-SECRET-0042")
        input.refresh(())
        scheduler.advance(by: .milliseconds(500))
        let queries = ["person 1", "Acme", "person 42", "Glo", "Hooli", "person 9"]
        var sent = 2
        var round = 0
        while sent < inputs {
            let query = queries[round % queries.count]
            // Typed a letter at a time, faster than the debounce: only the last one searches.
            for length in 1...query.count where sent < inputs {
                input.searchText(String(query.prefix(length)))
                scheduler.advance(by: .milliseconds(50))
                sent += 1
            }
            scheduler.advance(by: .milliseconds(400))
            for offset in 0..<10 where sent < inputs {
                input.toggleFavorite((round * 37 + offset * 11) % 750 + 1)
                sent += 1
            }
            round += 1
        }
        scheduler.advance(by: .seconds(1))
    }
}
