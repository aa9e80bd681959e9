import Foundation

extension JournalHeader {
    /// Why a flight recorder wrote a journal (a dump): what triggered it, the reason the program
    /// gave, the step it happened at and when. Kept in the header's extension, which readers that
    /// predate it skip.
    public struct Dump: Sendable, Equatable {
        /// What triggered the dump.
        public var trigger: Trigger
        /// The reason the program gave (``FlightRecorder/dump(reason:)``), or what the trigger says
        /// about itself; at most ``maximumReasonLength`` bytes of UTF-8.
        public var reason: String
        /// The last step the recorder had numbered when the trigger fired: where a viewer opens.
        public var step: UInt64?
        /// The signal that ended the process or asked for the dump, if one did.
        public var signal: Int32?
        /// When the dump was made, in nanoseconds since 1970.
        public var dumpedWallNanoseconds: Int64

        /// The most bytes of reason text a dump keeps.
        public static let maximumReasonLength = 1_024

        /// What triggered a dump. Open-ended: a reader shows a trigger it does not know by name.
        public struct Trigger: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            /// The trigger's name as the header keeps it (`call`, `crash`, …).
            public var rawValue: String
            /// A trigger by its name.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The trigger's name.
            public var description: String { rawValue }

            /// The program asked for it (``FlightRecorder/dump(reason:)``).
            public static let call = Trigger(rawValue: "call")
            /// The program's assertion failed (``FlightRecorder/dump(unless:_:)``).
            public static let assertion = Trigger(rawValue: "assertion")
            /// `rewind dump` on the ring file: someone outside the process took its window.
            public static let external = Trigger(rawValue: "external")
            /// A recorder starting on a ring its previous process did not close (it crashed, was
            /// killed, or exited without closing the recorder): the previous run's last window.
            public static let unclosed = Trigger(rawValue: "unclosed")
            /// A recorder starting on a ring its previous process marked as it died of a fatal
            /// signal (``Dump/signal``): the window before the crash.
            public static let crash = Trigger(rawValue: "crash")
            /// A condition over the recorded state (``FlightRecorder/Configuration/conditions``)
            /// became true; the reason is the condition and the unit, the step where it did.
            public static let condition = Trigger(rawValue: "condition")
            /// The signal the recorder listens for (``FlightRecorder/Configuration/dumpSignal``,
            /// SIGUSR2 by default) reached the process.
            public static let signal = Trigger(rawValue: "signal")
        }

        /// A dump record.
        public init(trigger: Trigger, reason: String, step: UInt64? = nil, signal: Int32? = nil, dumpedWallNanoseconds: Int64) {
            self.trigger = trigger
            self.reason = String(decoding: Array(reason.utf8).prefixOfWholeScalars(Self.maximumReasonLength), as: UTF8.self)
            self.step = step
            self.signal = signal
            self.dumpedWallNanoseconds = dumpedWallNanoseconds
        }

        /// One line for `rewind info`: `call: "checkout failed" at step 1234`.
        public var summary: String {
            step.map { headline + " at step \($0)" } ?? headline
        }

        /// The trigger and the reason, without the step: `call: "checkout failed"` (the viewer's
        /// title, where the cursor shows the step).
        package var headline: String {
            var text = trigger.rawValue
            if let signal { text += " (signal \(signal))" }
            if !reason.isEmpty {
                let quoted = reason.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                text += ": \"\(quoted)\""
            }
            return text
        }

        func encode(into fields: inout ByteWriter) {
            fields.byte(ExtensionTag.dumpTrigger.rawValue)
            fields.string(trigger.rawValue)
            fields.byte(ExtensionTag.dumpReason.rawValue)
            fields.string(reason)
            if let step {
                var value = ByteWriter()
                value.varint(step)
                fields.byte(ExtensionTag.dumpStep.rawValue)
                fields.varint(value.count)
                fields.append(value.bytes)
            }
            if let signal {
                var value = ByteWriter()
                value.varint(UInt64(UInt32(bitPattern: signal)))
                fields.byte(ExtensionTag.dumpSignal.rawValue)
                fields.varint(value.count)
                fields.append(value.bytes)
            }
            fields.byte(ExtensionTag.dumpTime.rawValue)
            fields.varint(8)
            fields.fixed(dumpedWallNanoseconds)
        }
    }

    /// Reads one of the dump's fields from the extension; a field that does not parse is left out.
    mutating func decodeDumpField(_ tag: ExtensionTag, _ value: [UInt8]) {
        var dump = self.dump ?? Dump(trigger: Dump.Trigger(rawValue: ""), reason: "", dumpedWallNanoseconds: 0)
        var reader = ByteReader(value)
        switch tag {
        case .dumpTrigger: dump.trigger = Dump.Trigger(rawValue: String(decoding: value.prefixOfWholeScalars(255), as: UTF8.self))
        case .dumpReason: dump.reason = String(decoding: value.prefixOfWholeScalars(Dump.maximumReasonLength), as: UTF8.self)
        case .dumpStep: dump.step = try? reader.varint()
        case .dumpSignal: dump.signal = (try? reader.varint()).flatMap { Int32(exactly: $0) }
        case .dumpTime: dump.dumpedWallNanoseconds = (try? reader.fixed(Int64.self)) ?? 0
        default: return
        }
        self.dump = dump
    }
}
