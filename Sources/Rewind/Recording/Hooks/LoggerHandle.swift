/// A logger as a unit holds it while it records: one class reference, with what the logger said
/// about itself asked once.
///
/// Units copy the logger they record to several times a commit (into the running commit, into
/// each event's call). Copying an `any CycleLogging` goes through its value witness — measured
/// at about 130 instructions a copy and 100 a destruction, a third of an event's cost on the
/// app's thread — where copying a class reference is one retain. So the frameworks pass handles,
/// and ``EventChannel``'s public API, which users' own units call, passes the logger itself.
package final class LoggerHandle: Sendable {
    /// The logger.
    package let logger: any CycleLogging
    /// The logger's ``CycleLogging/takesRecords``, asked once.
    package let takesRecords: Bool

    package init(_ logger: any CycleLogging) {
        self.logger = logger
        self.takesRecords = logger.takesRecords
    }
}
