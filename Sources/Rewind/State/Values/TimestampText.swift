import Foundation

/// Dates as ISO 8601 text in UTC with microseconds (`2026-11-21T20:14:42.123456Z`): readable in the
/// viewer and in JSON, sortable as text, and precise to the microsecond when decoded back.
enum TimestampText {
    static func format(_ date: Date) -> String {
        let totalMicroseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        var seconds = Int(floor(totalMicroseconds / 1_000_000))
        let microseconds = Int(totalMicroseconds - Double(seconds) * 1_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        // Far from 1970 a Double no longer holds every microsecond, and the split above can leave
        // the fraction out of range: the format below then says what it is.
        if (0...9999).contains(year), (0..<1_000_000).contains(microseconds) {
            // What the format below writes, digit by digit into 27 bytes, without String(format:)'s
            // cost or a string per field (exports write one per event).
            return String(unsafeUninitializedCapacity: 27) { text in
                var end = 0
                func put(_ value: Int, width: Int, then separator: UInt8?) {
                    var divisor = 1
                    for _ in 1..<width { divisor *= 10 }
                    while divisor > 0 {
                        text[end] = UInt8(ascii: "0") + UInt8(value / divisor % 10)
                        end += 1
                        divisor /= 10
                    }
                    if let separator {
                        text[end] = separator
                        end += 1
                    }
                }
                put(year, width: 4, then: UInt8(ascii: "-"))
                put(Int(parts.tm_mon) + 1, width: 2, then: UInt8(ascii: "-"))
                put(Int(parts.tm_mday), width: 2, then: UInt8(ascii: "T"))
                put(Int(parts.tm_hour), width: 2, then: UInt8(ascii: ":"))
                put(Int(parts.tm_min), width: 2, then: UInt8(ascii: ":"))
                put(Int(parts.tm_sec), width: 2, then: UInt8(ascii: "."))
                put(microseconds, width: 6, then: UInt8(ascii: "Z"))
                return end
            }
        }
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), microseconds
        )
    }

    static func parse(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard scalars.count >= 20, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              scalars[4] == UInt8(ascii: "-"), scalars[7] == UInt8(ascii: "-"), scalars[10] == UInt8(ascii: "T"),
              scalars[13] == UInt8(ascii: ":"), scalars[16] == UInt8(ascii: ":"), scalars.last == UInt8(ascii: "Z")
        else { return nil }
        var fraction = 0.0
        if scalars[19] == UInt8(ascii: ".") {
            let digits = scalars[20..<(scalars.count - 1)]
            guard !digits.isEmpty, let value = number(20..<(scalars.count - 1)) else { return nil }
            fraction = Double(value) / pow(10, Double(digits.count))
        } else if scalars.count != 20 {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: (Double(seconds) * 1_000_000 + (fraction * 1_000_000).rounded()) / 1_000_000)
    }
}
