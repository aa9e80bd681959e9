import Foundation

/// Numbers as text the way `String(format:)` writes them (`%02d`, `%.1f`), without its cost:
/// `String(format:)` goes through Foundation's formatter and a dynamic cast per argument, which
/// dominated `rewind log` (a timestamp and a duration on every line).
package enum DecimalText {
    /// `value` in decimal, with leading zeros to `width` digits (`%0Nd` for a value ≥ 0).
    static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// `Double(numerator) / Double(denominator)` with `places` decimals, as `%.Nf` writes it.
    /// Integer arithmetic gives the same digits except at an exact decimal tie, where `%f` rounds
    /// the binary value (slightly above or below the tie): there it defers to `String(format:)`.
    static func fixed(_ numerator: Int64, dividedBy denominator: Int64, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        guard numerator >= 0, denominator > 0, denominator % scale == 0 else {
            return String(format: "%.\(places)f", Double(numerator) / Double(denominator))
        }
        let unit = denominator / scale
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: unit)
        if remainder * 2 == unit {
            return String(format: "%.\(places)f", Double(numerator) / Double(denominator))
        }
        let rounded = quotient + (remainder * 2 > unit ? 1 : 0)
        let whole = rounded / scale
        return places == 0 ? String(whole) : "\(whole).\(zeroPadded(Int(rounded % scale), width: places))"
    }

    /// Appends `value`'s decimal digits (after a `-` when negative) to `bytes`, no string made:
    /// the digits of every number Rewind writes by the million (JSON, log lines, values).
    package static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        append(magnitude: value.magnitude, to: &bytes)
    }

    /// Appends `value`'s decimal digits to `bytes`.
    package static func append(magnitude value: UInt64, to bytes: inout [UInt8]) {
        var magnitude = value
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, filled from the end
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[position...])
        }
    }
}
