extension JournalEncoder {
    /// An activity's value, or the input a `willDispatch` carries, captured (and redacted by the
    /// name it was sent under).
    func payloadStep(_ value: LoggedValue) -> EncodedStep {
        EncodedStep(body: .value(value.tree(options: configuration.captureOptions)))
    }
}
