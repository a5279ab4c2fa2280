"""Runs httpbin on 127.0.0.1 on a free port and prints the port on the first line.

The Swift test suite starts this script and stops it when its tests are done.
It exits when its standard input closes, so it never outlives the test process.
"""
import os
import sys
import threading

try:
    from httpbin import app
    from werkzeug.serving import WSGIRequestHandler, make_server
except ImportError as error:  # pragma: no cover - reported to the Swift side
    print(f"ERROR httpbin is not installed ({error}); "
          "run: python3 -m pip install -r Tests/requirements.txt", flush=True)
    sys.exit(3)


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):
        pass


def main():
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    print(server.server_port, flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the parent closes the pipe or dies
    server.shutdown()


if __name__ == "__main__":
    main()
