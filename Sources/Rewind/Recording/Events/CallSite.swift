/// Where in the user's code an event was triggered.
///
/// It holds the `StaticString`s the compiler supplies (`#fileID`, `#function`, `#line`), so that
/// recording a call site allocates nothing.
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` or `#file` gives it.
    public let file: StaticString
    /// The function.
    public let function: StaticString
    /// The line.
    public let line: UInt

    /// Creates a call site; the defaults capture the caller's position.
    public init(file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        self.file = file
        self.function = function
        self.line = line
    }

    /// For events no line of user code caused (a unit released by its last reference going away).
    public static let unknown = CallSite(file: "", function: "", line: 0)

    /// `File.swift:42`: the file's last path component and the line; empty when unknown.
    public var description: String {
        line == 0 && file.utf8CodeUnitCount == 0 ? "" : "\(fileName):\(line)"
    }

    /// The file's last path component.
    package var fileName: String {
        let path = file.description
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    public static func == (lhs: CallSite, rhs: CallSite) -> Bool {
        lhs.line == rhs.line && lhs.file.description == rhs.file.description
            && lhs.function.description == rhs.function.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(file.description)
    }
}
