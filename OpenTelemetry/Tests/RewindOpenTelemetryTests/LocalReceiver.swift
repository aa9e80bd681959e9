import Foundation

/// `otlp_receiver.py` running on a free local port: what the exporter sent, decoded by the official
/// OpenTelemetry protobuf bindings (`pip install opentelemetry-proto`).
final class LocalReceiver {
    let port: Int
    private let processID: pid_t
    private let output: String

    /// A receiver; with `failFirst`, its first `failFirst` requests of each signal get 503.
    init(failFirst: Int = 0) throws {
        output = NSTemporaryDirectory() + "otlp-\(UUID().uuidString).jsonl"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("otlp_receiver.py").path
        let (child, readEnd) = try Tool.spawn(["python3", script, output, String(failFirst)], capturing: STDOUT_FILENO, searchingPath: true)
        processID = child
        // The receiver prints "ready PORT" once it listens, or dies with an import error.
        var line = [UInt8]()
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
        close(readEnd)
        guard let port = String(decoding: line, as: UTF8.self).split(separator: " ").last.flatMap({ Int($0) }) else {
            kill(child, SIGKILL)
            _ = Tool.wait(for: child)
            throw ReceiverError(message: "the receiver did not start (is opentelemetry-proto installed? pip install opentelemetry-proto)")
        }
        self.port = port
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Every request accepted so far: its signal (`traces`, `logs`), HTTP headers (lowercased
    /// names) and body as JSON.
    func requests() throws -> [Request] {
        guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return Request(
                signal: object["signal"] as? String ?? "", headers: object["headers"] as? [String: String] ?? [:],
                body: object["request"] as? [String: Any] ?? [:]
            )
        }
    }

    struct Request {
        var signal: String
        var headers: [String: String]
        var body: [String: Any]
    }

    /// A local TCP port nothing listens on (bound, then released), for a receiver that is down.
    static func unusedPort() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw ReceiverError(message: "no free local port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func stop() {
        kill(processID, SIGKILL)
        _ = Tool.wait(for: processID)
        try? FileManager.default.removeItem(atPath: output)
    }

    struct ReceiverError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
