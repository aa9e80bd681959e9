import Dispatch
import Foundation
import Logging
import MCP

/// Standard input and output as an MCP transport whose messages are written whole and one at a
/// time, in the order they were sent.
///
/// The SDK's `StdioTransport` writes a message in pieces and waits, between pieces, for a full
/// pipe to drain; being an actor, it lets another message start meanwhile, so answers to parallel
/// calls interleave on the pipe and the client reads corrupt lines. Here every message is written
/// by one serial queue, from its first byte to its newline, before the next one starts; the
/// caller awaits its own write without blocking a thread of the concurrency pool.
public actor WholeMessageStdioTransport: Transport {
    public nonisolated let logger: Logger
    private let input: Int32
    private let output: Int32
    /// Writes messages one at a time, in the order they were handed over.
    private let writer = DispatchQueue(label: "rewind-mcp.output")
    private let messages: AsyncThrowingStream<Data, Swift.Error>
    private let continuation: AsyncThrowingStream<Data, Swift.Error>.Continuation
    private var isConnected = false

    /// A transport over `input` and `output` (by default the process's standard input and output).
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, logger: Logger? = nil) {
        self.input = input
        self.output = output
        self.logger = logger ?? Logger(label: "rewind-mcp.transport", factory: { _ in SwiftLogNoOpLogHandler() })
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    public func connect() async throws {
        guard !isConnected else { return }
        isConnected = true
        // Lines are read on a thread of their own with blocking reads: no polling, and no thread
        // of the concurrency pool held while the client is quiet.
        let (input, continuation) = (input, continuation)
        Thread.detachNewThread {
            Self.readLines(from: input, into: continuation)
        }
    }

    public func disconnect() async {
        guard isConnected else { return }
        isConnected = false
        continuation.finish()
    }

    public func send(_ message: Data) async throws {
        guard isConnected else { throw MCPError.transportError(POSIXError(.ENOTCONN)) }
        let bytes = [UInt8](message) + [UInt8(ascii: "\n")]
        let output = output
        // Handed to the serial queue before this actor can run another send: the order of sends
        // is the order of writes.
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Swift.Error>) in
            writer.async {
                done.resume(with: Result { try Self.writeAll(bytes, to: output) })
            }
        }
    }

    public func receive() -> AsyncThrowingStream<Data, Swift.Error> {
        messages
    }

    /// Writes every byte, waiting while the pipe is full (a descriptor another program made
    /// non-blocking included).
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, -1)
            } else {
                throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
        }
    }

    /// Reads newline-ended messages until the end of the input.
    private static func readLines(from descriptor: Int32, into continuation: AsyncThrowingStream<Data, Swift.Error>.Continuation) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, -1)
                continue
            }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[..<count])
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if newline > start { continuation.yield(Data(pending[start..<newline])) }
                start = newline + 1
            }
            pending.removeFirst(start)
        }
        continuation.finish()
    }
}
