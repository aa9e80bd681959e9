extension JournalEncoder {
    /// An activity's value, or the input a `willDispatch` carries, captured (and redacted by the
    /// name it was sent under).
    func payloadStep(_ value: LoggedValue) -> EncodedStep {
        EncodedStep(body: .value(value.tree(options: configuration.captureOptions)))
    }
}

extension JournalEncoder {
    /// A log message's record: its level as the name, the message as the description, its place
    /// in the code as swift-log gave it (text, not the compiler's static strings), and its
    /// metadata's tree — redacted by name, as a state's fields are — as the value, when it has
    /// any. A record made by hand without its message keeps the name and description it has.
    func logStep(_ event: EventRecord, into wire: inout WireRecord) -> EncodedStep {
        guard let message = event.value?.value as? LogMessage else { return EncodedStep() }
        wire.name = message.level.rawValue
        wire.description = message.message
        wire.file = .text(message.file)
        wire.function = .text(message.function)
        wire.line = message.line
        return EncodedStep(body: message.metadataTree(options: configuration.captureOptions).map(WireRecord.Body.value) ?? .none)
    }
}
