@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

/// An input property a replay can send a recorded value into: a subject, a relay, a `@Published`
/// property.
package protocol ReplayableInput {
    /// Decodes `value` as the input's element type and sends it.
    func replaySend(_ value: StateValue?) throws
    /// The input's element type: what a recorded value must decode as.
    var replayValueType: Any.Type { get }
}

/// A state property a replay can set: a `@Published` store property, a `BehaviorRelay`.
package protocol RestorableProperty {
    /// Decodes `value` as the property's type (keeping the live value's secrets, see
    /// `StateCapture.decode(_:restoring:over:)`) and returns what sets it: a unit's properties are
    /// all decoded before any is set, so a state that does not fit leaves the unit as it was.
    func restorer(for value: StateValue) throws -> () -> Void
}

extension PassthroughSubject: ReplayableInput {
    package var replayValueType: Any.Type { Output.self }

    package func replaySend(_ value: StateValue?) throws {
        send(try StateCapture.decode(Output.self, from: value) as! Output)
    }
}

extension CurrentValueSubject: ReplayableInput {
    package var replayValueType: Any.Type { Output.self }

    package func replaySend(_ value: StateValue?) throws {
        send(try StateCapture.decode(Output.self, from: value) as! Output)
    }
}

/// Finds inputs and state properties by the names a journal recorded.
package enum RecordedNames {
    /// Sends `input` into the property of `container` it names, as a dispatch of `recorder`'s unit
    /// — as the unit's input proxy sends a value — so that a unit with a logger (a re-record) logs
    /// it as it was recorded; `false` if there is no property that can take it.
    package static func replay(_ input: RecordedInput, into container: Any, through recorder: UnitRecorder) throws -> Bool {
        guard let property = ObservedProperty.children(of: container).first(where: { $0.label.map(ObservedProperty.plainName) == input.name }),
              let replayable = property.value as? any ReplayableInput else { return false }
        var failure: (any Error)?
        // The recorded value is logged as it was recorded (a tree is captured as it is).
        recorder.dispatch(name: input.name, value: input.value, callSite: .unknown) {
            do { try replayable.replaySend(input.value) } catch { failure = error }
        }
        if let failure { throw failure }
        return true
    }

    /// Sets each restorable property of `container` from the field of `state` with its name.
    /// What stops `input` from being sent again into the input property it names, checked before
    /// anything is sent; `nil` when nothing does (or no property has its name: the replay puts
    /// that dispatch's state back).
    package static func problem(sending input: RecordedInput, into container: Any) -> SchemaProblem? {
        guard let property = ObservedProperty.children(of: container).first(where: { $0.label.map(ObservedProperty.plainName) == input.name }),
              let replayable = property.value as? any ReplayableInput,
              let type = replayable.replayValueType as? any Decodable.Type else { return nil }
        return .sending(input, as: type)
    }

    package static func restore(_ state: StateValue, into container: Any) throws {
        guard case .object(let fields) = state else {
            throw ReplayError.notRestorable("the recorded state is \(state.shapeName), not an object of properties")
        }
        var setters: [() -> Void] = []
        for child in ObservedProperty.children(of: container) {
            guard let label = child.label, let property = child.value as? any RestorableProperty,
                  let value = fields[ObservedProperty.plainName(label)] else { continue }
            do {
                setters.append(try property.restorer(for: value))
            } catch let error as DecodingError {
                throw DecodingError.prefixed(error, with: ObservedProperty.plainName(label))
            }
        }
        for set in setters { set() }
    }
}

extension DecodingError {
    /// The error with `key` in front of its coding path, so that it names the property it is about.
    static func prefixed(_ error: DecodingError, with key: String) -> DecodingError {
        struct Key: CodingKey {
            let stringValue: String
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        func context(_ context: DecodingError.Context) -> DecodingError.Context {
            DecodingError.Context(codingPath: [Key(key)] + context.codingPath, debugDescription: context.debugDescription, underlyingError: context.underlyingError)
        }
        switch error {
        case .keyNotFound(let missing, let value): return .keyNotFound(missing, context(value))
        case .typeMismatch(let type, let value): return .typeMismatch(type, context(value))
        case .valueNotFound(let type, let value): return .valueNotFound(type, context(value))
        case .dataCorrupted(let value): return .dataCorrupted(context(value))
        @unknown default: return error
        }
    }
}
