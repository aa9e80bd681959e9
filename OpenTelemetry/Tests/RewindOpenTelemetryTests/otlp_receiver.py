"""A local OTLP/HTTP receiver for the OpenTelemetry exporter's tests.

Decodes every export request with the official protobuf bindings (PyPI: opentelemetry-proto) and
appends it, as JSON, one request per line, to OUTPUT. Prints "ready PORT" once it listens.
With FAIL_FIRST, answers the first FAIL_FIRST requests of each signal with 503 Service Unavailable
(Retry-After: 0), as a collector under load does, without keeping them.
Usage: python3 otlp_receiver.py OUTPUT [FAIL_FIRST]
"""
import http.server
import json
import sys
import threading

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest, ExportLogsServiceResponse
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest, ExportTraceServiceResponse

OUTPUT = sys.argv[1]
FAIL_FIRST = int(sys.argv[2]) if len(sys.argv) > 2 else 0
refused = {}
lock = threading.Lock()
KINDS = {
    "/v1/traces": (ExportTraceServiceRequest, ExportTraceServiceResponse, "traces"),
    "/v1/logs": (ExportLogsServiceRequest, ExportLogsServiceResponse, "logs"),
}


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        kind = KINDS.get(self.path)
        if kind is None:
            self.send_error(404)
            return
        request_type, response_type, name = kind
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            refuse = refused.get(name, 0) < FAIL_FIRST
            if refuse:
                refused[name] = refused.get(name, 0) + 1
        if refuse:
            self.send_response(503)
            self.send_header("Retry-After", "0")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        request = request_type()
        request.ParseFromString(body)
        with lock, open(OUTPUT, "a") as output:
            output.write(json.dumps({
                "signal": name,
                "content_type": self.headers.get("Content-Type"),
                "headers": {key.lower(): value for key, value in self.headers.items()},
                "request": MessageToDict(request),
            }) + "\n")
        answer = response_type().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *arguments):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
print("ready", server.server_address[1], flush=True)
server.serve_forever()
