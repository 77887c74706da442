"""A local webhook receiver for the SDK scripts' push-notification checks."""
import json, threading
from http.server import BaseHTTPRequestHandler, HTTPServer


def webhook_receiver():
    """Start a webhook on loopback; return its URL and the list of (headers, body) of each
    POST it receives (header names lower-cased, body parsed as JSON)."""
    got = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            got.append(({k.lower(): v for k, v in self.headers.items()}, json.loads(body)))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/hook", got
