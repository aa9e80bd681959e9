/// What a ``LocalReceiver`` received, flattened: every span and log record, with attributes as
/// `[key: text]`.
struct Received {
    var spans: [[String: Any]] = []
    var records: [[String: Any]] = []
    var serviceNames: Set<String> = []

    init(_ requests: [LocalReceiver.Request]) {
        for request in requests {
            let traces = request.signal == "traces"
            for resource in request.body[traces ? "resourceSpans" : "resourceLogs"] as? [[String: Any]] ?? [] {
                let attributes = (resource["resource"] as? [String: Any])?["attributes"]
                if let name = Self.attributes(attributes)["service.name"] { serviceNames.insert(name) }
                for scope in resource[traces ? "scopeSpans" : "scopeLogs"] as? [[String: Any]] ?? [] {
                    if traces { spans += scope["spans"] as? [[String: Any]] ?? [] }
                    else { records += scope["logRecords"] as? [[String: Any]] ?? [] }
                }
            }
        }
    }

    /// OTLP attributes (`[{key, value: {stringValue|intValue}}]`) as text by key.
    static func attributes(_ list: Any?) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in list as? [[String: Any]] ?? [] {
            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any] else { continue }
            result[key] = (value["stringValue"] as? String) ?? (value["intValue"] as? String) ?? value["intValue"].map { "\($0)" }
        }
        return result
    }

    /// Each attribute's OTLP value type by key: `stringValue`, `intValue`, ….
    static func types(_ list: Any?) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in list as? [[String: Any]] ?? [] {
            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any], let type = value.keys.first else { continue }
            result[key] = type
        }
        return result
    }

    /// The attributes of every span, span event and log record.
    var everyAttributeList: [Any?] {
        spans.map { $0["attributes"] } + spans.flatMap { ($0["events"] as? [[String: Any]] ?? []).map { $0["attributes"] } } + records.map { $0["attributes"] }
    }

    func span(_ name: String) -> [String: Any]? { spans.first { $0["name"] as? String == name } }
    func record(_ body: String) -> [String: Any]? { records.first { Self.body(of: $0) == body } }
    static func body(of record: [String: Any]) -> String? { (record["body"] as? [String: Any])?["stringValue"] as? String }
}
