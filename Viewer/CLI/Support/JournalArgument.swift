import ArgumentParser

/// The journal a command reads: one positional argument, told and completed alike by every
/// command that takes one (`@OptionGroup var journal: JournalArgument`).
struct JournalArgument: ParsableArguments {
    @Argument(help: "The journal (.rewind file).", completion: .file(extensions: ["rewind"])) var file: String
}
