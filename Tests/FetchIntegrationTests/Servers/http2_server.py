"""HTTPS servers on 127.0.0.1 that speak HTTP/2, for measuring how many requests a client
keeps in flight and how many connections it opens. Needs hypercorn (Tests/requirements.txt)
and the `openssl` command.

At start it makes a certificate authority of its own and a certificate for 127.0.0.1 (with
`openssl`, as tls_server.py does), listens on three free ports, prints one line of JSON:
{"port": <h2>, "h2": <port>, "http1": <port>, "plain": <port>, "ca": <CA file>}, and exits
(deleting the folder) when its standard input closes.

  h2     TLS, offering h2 and http/1.1 by ALPN
  http1  TLS, offering http/1.1 only
  plain  plain HTTP/1.1

Every port answers:
  GET /delay?ms=N&tag=T   "ok" after N milliseconds, counted under the tag T; with
                          &until=K, the N milliseconds start once K requests of the tag have
                          been in flight at once (or after 10 s), so a test can show K at
                          once without a bound on time; with &hold=1 as well, the head of
                          each answer is sent as soon as K are in flight and its body only
                          once /release of the tag is asked for (or after 10 s): so a client
                          hears every head before any answer ends, however its reads fall
                          With &gate=1, nothing of the answer is sent until /release
                          of the tag is asked for (or after 10 s), then it is sent after N
                          milliseconds: so the requests a client has sent stay in flight
                          while a test looks; with &free=K as well, the first K
                          requests of the tag are not held
  GET /release?tag=T      lets the held answers of the tag go
  GET /stats?tag=T        what the requests tagged T saw, as JSON:
      {"requests": served so far, "inFlight": now, "peakInFlight": most at once,
       "connections": distinct client connections they came on,
       "opened": those of them whose first request carried T,
       "protocols": {"2": n, "1.1": n}}
A connection is known by its client port, from its first request on: one that carries no
request is not counted.
"""
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from urllib.parse import parse_qs

from hypercorn.asyncio import serve
from hypercorn.config import Config

from tls_server import make_ca, make_leaf


class Counters:
    """What the requests of one tag saw."""

    def __init__(self):
        self.requests = 0
        self.in_flight = 0
        self.peak = 0
        self.connections = set()
        self.opened = 0
        self.protocols = {}
        self.released = asyncio.Event()
        self.arrivals = 0

    def as_json(self):
        return {"requests": self.requests, "inFlight": self.in_flight, "peakInFlight": self.peak,
                "connections": len(self.connections), "opened": self.opened, "protocols": self.protocols}


tags = {}
seen_connections = set()


async def respond_head(send, status, length, content_type=b"text/plain"):
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type), (b"content-length", str(length).encode())]})


async def respond(send, status, body, content_type=b"text/plain"):
    await respond_head(send, status, len(body), content_type)
    await send({"type": "http.response.body", "body": body})


async def released(counters):
    """Waits until the tag's bodies are let go, at most 10 s."""
    try:
        await asyncio.wait_for(counters.released.wait(), 10)
    except asyncio.TimeoutError:
        pass


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = (await receive())["type"].replace("lifespan.", "")
            await send({"type": f"lifespan.{message}.complete"})
            if message == "shutdown":
                return
    query = parse_qs(scope["query_string"].decode())
    tag = query.get("tag", [""])[0]
    if scope["path"] == "/stats":
        counters = tags.get(tag, Counters())
        return await respond(send, 200, json.dumps(counters.as_json()).encode(), b"application/json")
    if scope["path"] == "/release":
        tags.setdefault(tag, Counters()).released.set()
        return await respond(send, 200, b"released")
    if scope["path"] != "/delay":
        return await respond(send, 404, b"not found")
    counters = tags.setdefault(tag, Counters())
    client = tuple(scope.get("client") or ("?", 0))
    if client not in seen_connections:
        seen_connections.add(client)
        counters.opened += 1
    counters.connections.add(client)
    version = scope.get("http_version", "?")
    counters.protocols[version] = counters.protocols.get(version, 0) + 1
    counters.in_flight += 1
    arrival = counters.arrivals
    counters.arrivals += 1
    counters.peak = max(counters.peak, counters.in_flight)
    try:
        until = int(query.get("until", ["0"])[0])
        for _ in range(1000):
            if counters.peak >= until:
                break
            await asyncio.sleep(0.01)
        if query.get("gate", ["0"])[0] == "1" and arrival >= int(query.get("free", ["0"])[0]):
            await released(counters)
        await asyncio.sleep(int(query.get("ms", ["0"])[0]) / 1000)
        if query.get("hold", ["0"])[0] == "1":
            # hypercorn writes the head of an answer out when it is started
            await respond_head(send, 200, 2)
            await released(counters)
            await send({"type": "http.response.body", "body": b"ok"})
        else:
            await respond(send, 200, b"ok")
    finally:
        counters.in_flight -= 1
        counters.requests += 1


def listener():
    """A socket listening on a free port of 127.0.0.1."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    return sock


def config(sock, folder=None, alpn=None):
    settings = Config()
    settings.bind = [f"fd://{sock.fileno()}"]
    settings.backlog = 1024
    settings.keep_alive_timeout = 30
    settings.accesslog = None
    settings.errorlog = None
    if folder:
        settings.certfile = os.path.join(folder, "server.pem")
        settings.keyfile = os.path.join(folder, "server.key")
        settings.alpn_protocols = alpn
    return settings


async def run(configs):
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # Ends when the parent closes the pipe or dies.
    threading.Thread(target=lambda: (sys.stdin.read(), loop.call_soon_threadsafe(stop.set)), daemon=True).start()
    await asyncio.gather(*(serve(app, each, shutdown_trigger=stop.wait) for each in configs))


def main():
    folder = tempfile.mkdtemp(prefix="fetch-h2-")
    try:
        make_ca(folder, "ca")
        make_leaf(folder, "server", "ca")
        h2, http1, plain = listener(), listener(), listener()
        configs = [config(h2, folder, ["h2", "http/1.1"]), config(http1, folder, ["http/1.1"]), config(plain)]
        ports = {"port": h2.getsockname()[1], "h2": h2.getsockname()[1], "http1": http1.getsockname()[1],
                 "plain": plain.getsockname()[1], "ca": os.path.join(folder, "ca.pem")}
        print(json.dumps(ports), flush=True)
        asyncio.run(run(configs))
    except subprocess.CalledProcessError as error:
        print(f"openssl failed: {error.stderr.decode(errors='replace').strip()}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
