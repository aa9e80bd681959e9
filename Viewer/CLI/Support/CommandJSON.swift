import Rewind

/// What every command's `--json` writes: objects that begin with `schema_version`, the version of
/// the documented schemas in `docs/schemas/` — raised when a field changes meaning or goes away,
/// not when one is added.
enum CommandJSON {
    /// The version of the commands' JSON schemas.
    static let schemaVersion = 1

    /// An object of a command's answer, `schema_version` first.
    static func object(_ build: (inout JSONText.Object) -> Void) -> JSONText.Object {
        JSONText.buildObject { object in
            object.field("schema_version", schemaVersion)
            build(&object)
        }
    }
}
