"""A small HTTP server, standard library only, that misbehaves on purpose.

It binds 127.0.0.1 on a free port, prints the port on its first line and exits when its
standard input closes. Each path is one behaviour; see BEHAVIOURS below. Every wait is
bounded by MAX_STALL, and every size by MAX_BYTES, so nothing hangs or runs for ever.

Requests may carry `tag=<text>`: `/_seen?tag=<text>` then lists only the requests (and the
aborted transfers) with that tag, so tests running at the same time do not see each other.
Only tagged requests are logged: one server serves a whole test run.

With FAULT_SERVER_TIMING_LOG naming a file, the server appends a JSON line per request when
it has read it and another when it has answered, with the wall-clock times (`time.time()`) it
accepted the connection, read the request and answered: set against a client's own clock, they
tell whether a slow request waited in the client or in the server.
"""
import json
import os
import select
import socket
import socketserver
import struct
import sys
import threading
import time
from urllib.parse import urlsplit, parse_qs

MAX_STALL = 30  # seconds a stalling handler waits at most, so nothing hangs for ever
MAX_BYTES = 4 << 30  # the largest body /bytes sends
SINK_LIFETIME = 120  # seconds a byte-counting listener stays open
PATTERN = bytes(range(256)) * 4096  # 1 MiB; byte i of a /bytes body is i % 256


def reply(sock, status, body=b"", headers=None, reason="OK", method="GET"):
    head = [f"HTTP/1.1 {status} {reason}"]
    headers = dict(headers or {})
    if status not in (204, 304) and "Transfer-Encoding" not in headers:
        headers.setdefault("Content-Length", str(len(body)))
    headers.setdefault("Connection", "close")
    head += [f"{k}: {v}" for k, v in headers.items()]
    payload = b"" if method == "HEAD" or status in (204, 304) else body
    sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload)


def seconds(query, name, default):
    return min(float(query.get(name, default)), MAX_STALL)


def hold(sock, limit):
    """Keeps `sock` open until the client closes it, `limit` seconds at most: a stall that
    ends on its own ends the connection with no answer ("Empty reply from server"), which a
    slow client can take for the fault the test is about."""
    until = time.monotonic() + limit
    poller = select.poll()  # not select.select: it refuses descriptors past 1023
    poller.register(sock, select.POLLIN)
    while (left := until - time.monotonic()) > 0:
        try:
            if poller.poll(left * 1000) and not sock.recv(65536):
                return
        except OSError:
            return


class Handler(socketserver.BaseRequestHandler):
    def read_request(self):
        data = b""
        # (a loaded client can connect seconds before it writes its request: a read that gave
        # up sooner would close the connection unanswered, "Empty reply from server")
        self.request.settimeout(MAX_STALL)
        while b"\r\n\r\n" not in data:
            chunk = self.request.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target, _version = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
        length = int(headers.get("content-length", ["0"])[0])
        while len(rest) < length:
            chunk = self.request.recv(65536)
            if not chunk:
                break
            rest += chunk
        return method, target, headers, rest

    def handle(self):
        try:
            parsed = self.read_request()
        except (OSError, ValueError):
            return
        if parsed is None:
            return
        timing = {"target": parsed[1], "accepted": self.server.accepted.time, "read": time.time()}
        self.server.log_timing(timing)
        try:
            self.answer(*parsed)
        finally:
            self.server.log_timing(dict(timing, answered=time.time()))

    def answer(self, method, target, headers, body):
        url = urlsplit(target)
        query = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        if not url.path.startswith("/_"):  # bookkeeping requests are not logged
            self.server.record({"method": method, "target": target, "headers": headers,
                                "body": body.decode("utf-8", "replace"), "tag": query.get("tag")})
        behaviour = BEHAVIOURS.get(url.path)
        if behaviour is None:
            reply(self.request, 404, b"no such behaviour", reason="Not Found", method=method)
            return
        try:
            behaviour(self, method, query, headers, body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away; nothing to answer


# Faults


def stall(handler, method, query, *_):
    """Reads the request and never answers, until the client leaves (or `seconds`, 30 at most)."""
    hold(handler.request, seconds(query, "seconds", MAX_STALL))


def five_then_stall(handler, method, query, *_):
    """Sends 5 bytes, then nothing: of the status line (`part=head`, the default) or of a
    100-byte body after complete headers (`part=body`)."""
    if query.get("part") == "body":
        handler.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n12345")
    else:
        handler.request.sendall(b"HTTP/")
    hold(handler.request, seconds(query, "seconds", MAX_STALL))


def trickle(handler, method, query, *_):
    """Announces `count` bytes (60 by default) and sends one every `interval` seconds."""
    count = int(query.get("count", "60"))
    interval = seconds(query, "interval", 0.5)
    handler.request.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {count}\r\nConnection: close\r\n\r\n".encode())
    started = time.monotonic()
    for _ in range(count):
        if time.monotonic() - started > MAX_STALL:
            return
        handler.request.sendall(b".")
        time.sleep(interval)


def garbage(handler, *_):
    handler.request.sendall(b"this is not HTTP at all\r\n\r\n")


def empty(handler, *_):
    pass  # close without a byte


def reset(handler, method, query, *_):
    """Announces 1000 bytes, sends 10, then resets the connection (RST instead of FIN)."""
    handler.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n0123456789")
    time.sleep(0.1)
    handler.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.request.close()  # with a zero linger time, close sends RST


def partial(handler, *_):
    handler.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n0123456789")


# Well-formed answers


def echo(handler, method, query, headers, body):
    """Answers with what the request carried: method, headers, body and query, as JSON."""
    payload = {"method": method, "headers": headers, "body": body.decode("utf-8", "replace"), "query": query}
    reply(handler.request, 200, json.dumps(payload).encode(), {"Content-Type": "application/json"},
          method=method)


def status(handler, method, query, headers, body):
    code = int(query.get("code", "200"))
    reply(handler.request, code, query.get("body", "").encode(), {"Content-Type": "text/plain"},
          reason="Status", method=method)


def chunked(handler, method, query, *_):
    """Sends `count` chunks (5 by default) of `size` bytes (7 by default) with chunked coding."""
    count, size = int(query.get("count", "5")), int(query.get("size", "7"))
    parts = [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n"
             b"Connection: close\r\n\r\n"]
    for index in range(count):
        data = bytes([ord("a") + index % 26]) * size
        parts.append(f"{len(data):x}\r\n".encode() + data + b"\r\n")
    parts.append(b"0\r\n\r\n")
    handler.request.sendall(b"".join(parts))


def resource(handler, method, query, headers, body):
    """A cacheable resource with an ETag: 304 when If-None-Match matches, and a HEAD that
    announces `length` bytes (the body's length by default) without sending any."""
    data = b"the resource body"
    etag = '"v1"'
    if etag in headers.get("if-none-match", []):
        reply(handler.request, 304, headers={"ETag": etag}, reason="Not Modified", method=method)
        return
    extra = {"ETag": etag, "Content-Type": "text/plain", "Cache-Control": "max-age=3600"}
    if method == "HEAD" and "length" in query:
        extra["Content-Length"] = query["length"]
    reply(handler.request, 200, data, extra, method=method)


def personal(handler, method, query, headers, body):
    """Per-user data: `Cache-Control: private, must-revalidate, max-age=60` (or `cache_control`),
    and a body naming the Authorization or Cookie the request carried."""
    who = (headers.get("authorization") or headers.get("cookie") or ["nobody"])[0]
    extra = {"Cache-Control": query.get("cache_control", "private, must-revalidate, max-age=60"),
             "Content-Type": "text/plain"}
    reply(handler.request, 200, f"for {who}".encode(), extra, method=method)


def set_cookie(handler, method, query, *_):
    """Sets a persistent cookie (it expires in 2099)."""
    cookie = "session=secret-cookie; Path=/; Expires=Wed, 01 Jan 2099 00:00:00 GMT"
    reply(handler.request, 200, b"cookie set", {"Set-Cookie": cookie, "Content-Type": "text/plain"},
          method=method)


CHALLENGES = {
    "basic": 'Basic realm="fetch"',
    "digest": 'Digest realm="fetch", qop="auth", nonce="6f1c2e", opaque="a9b8"',
    "bearer": 'Bearer realm="fetch", error="invalid_token"',
}


def challenge(handler, method, query, *_):
    """Answers 401 with the body `denied` and one WWW-Authenticate field per name in
    `schemes` (comma-separated: basic, digest, bearer; basic by default), or all of them in
    one field with `joined=1`. Every request is logged, so a test sees whether a second
    request, with credentials, followed."""
    values = [CHALLENGES[name] for name in query.get("schemes", "basic").split(",")]
    fields = [", ".join(values)] if query.get("joined") == "1" else values
    head = ["HTTP/1.1 401 Unauthorized", "Content-Type: text/plain", "Content-Length: 6", "Connection: close"]
    head += [f"WWW-Authenticate: {value}" for value in fields]
    handler.request.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (b"" if method == "HEAD" else b"denied"))


def slow(handler, method, query, *_):
    """Answers after `seconds`, counting how many requests of `group` run at once."""
    group = query.get("group", "")
    handler.server.enter(group)
    try:
        time.sleep(seconds(query, "seconds", 0.3))
    finally:
        handler.server.leave(group)  # before answering, so the client's next request is not counted with it
    reply(handler.request, 200, b"slow", {"Content-Type": "text/plain"}, method=method)


def gate(handler, method, query, *_):
    """Answers `gate` once `/_open?tag=<tag>` is requested (or after 30 s): a response the
    test lets go when it is ready, so what it does meanwhile races no clock."""
    handler.server.gate(query.get("tag", "")).wait(MAX_STALL)
    reply(handler.request, 200, b"gate", {"Content-Type": "text/plain"}, method=method)


def open_gate(handler, method, query, *_):
    """Lets the `/gate` requests of `tag` answer."""
    handler.server.gate(query.get("tag", "")).set()
    reply(handler.request, 200, b"{}", {"Content-Type": "application/json"})


def most_at_once(handler, method, query, *_):
    """The most requests of `group` that /slow ran at the same time."""
    body = json.dumps({"most": handler.server.most(query.get("group", ""))}).encode()
    reply(handler.request, 200, body, {"Content-Type": "application/json"})


def send_bytes(handler, method, query, *_):
    """Sends `n` bytes (byte i is i % 256), with Content-Length or, with `chunked=1`, chunked;
    at most `rate` MiB per second if given, as fast as possible otherwise. When the client
    goes away first, records how many bytes were sent (see /_seen); when it sent them all,
    records that too (`completed`)."""
    count = min(int(query.get("n", "0")), MAX_BYTES)
    use_chunks = query.get("chunked") == "1"
    rate = float(query.get("rate", "0")) * len(PATTERN)
    framing = "Transfer-Encoding: chunked" if use_chunks else f"Content-Length: {count}"
    sent = 0
    started = time.monotonic()
    try:
        handler.request.sendall(f"HTTP/1.1 200 OK\r\n{framing}\r\nContent-Type: application/octet-stream\r\n"
                                "Connection: close\r\n\r\n".encode())
        while sent < count:
            piece = PATTERN[: min(len(PATTERN), count - sent)]
            handler.request.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if use_chunks else piece)
            sent += len(piece)
            if rate > 0:
                time.sleep(max(0.0, started + sent / rate - time.monotonic()))
        if use_chunks:
            handler.request.sendall(b"0\r\n\r\n")
        handler.server.record({"completed": "/bytes", "sent": sent, "tag": query.get("tag")})
    except OSError:
        handler.server.record({"aborted": "/bytes", "sent": sent, "tag": query.get("tag")})


# Resumable downloads: `n` bytes (1 MiB at most) where byte i is (i + version) % 256, a
# strong ETag naming the version, `Range: bytes=a-` honoured when `If-Range` matches.
# The first request of a `tag` is cut: it announces the whole body, sends `cut` bytes and
# closes the connection (chunked with `chunked=1`, never sending the last chunk).


def ranged(handler, method, query, headers, body):
    """A resource that honours ranges: 206 for `bytes=a-` (off by `shift` bytes in its
    Content-Range when given), 416 with `bytes */n` past the end. The first request of a tag
    stops after `cut` bytes: it closes the connection, or with `hold=1` keeps it open until
    the client leaves."""
    serve_ranged(handler, query, headers, version=0, honours_range=True)


def ranged_ignoring(handler, method, query, headers, body):
    """The same resource from a server that ignores Range: always 200 and the whole body."""
    serve_ranged(handler, query, headers, version=0, honours_range=False)


def ranged_changing(handler, method, query, headers, body):
    """A resource that changes between requests of a tag: request k is version k (its bytes
    and its ETag), so a resumed request's If-Range no longer matches and gets a 200."""
    serve_ranged(handler, query, headers, version=handler.server.attempt(query.get("tag", "")) - 1,
                 honours_range=True, counted=True)


def serve_ranged(handler, query, headers, version, honours_range, counted=False):
    count = min(int(query.get("n", "1000")), len(PATTERN) - 256)
    content = PATTERN[version % 256: version % 256 + count]
    etag = f'"v{version}-{count}"'
    attempt = handler.server.attempt(query.get("tag", "")) if not counted else version + 1
    asked = headers.get("range", [""])[0]
    guard = headers.get("if-range", [etag])[0]
    start = None
    if honours_range and asked.startswith("bytes=") and asked.endswith("-") and guard == etag:
        start = int(asked[len("bytes="):-1])
    base = {"ETag": etag, "Accept-Ranges": "bytes" if honours_range else "none",
            "Content-Type": "application/octet-stream", "Connection": "close"}
    if start is not None and start >= count:
        reply(handler.request, 416, b"", dict(base, **{"Content-Range": f"bytes */{count}"}),
              reason="Range Not Satisfiable")
        return
    status, reason, part = 200, "OK", content
    if start is not None:
        status, reason, part = 206, "Partial Content", content[start:]
        shifted = start + int(query.get("shift", "0"))
        base["Content-Range"] = f"bytes {shifted}-{shifted + len(part) - 1}/{count}"
    cut = int(query["cut"]) if "cut" in query and attempt == 1 else None
    chunked = query.get("chunked") == "1"
    base.update({"Transfer-Encoding": "chunked"} if chunked else {"Content-Length": str(len(part))})
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in base.items()) + "\r\n"
    sent = part if cut is None else part[:cut]
    payload = (f"{len(sent):x}\r\n".encode() + sent + b"\r\n" if sent else b"") if chunked else sent
    if chunked and cut is None:
        payload += b"0\r\n\r\n"
    handler.request.sendall(head.encode("latin-1") + payload)
    if cut is not None and query.get("hold") == "1":
        hold(handler.request, MAX_STALL)  # the cut part stays all there is until the client leaves

# Streams

# A text/event-stream body with every parsing edge: a BOM, CR, LF and CRLF line ends,
# comments, a field without a colon, multi-line data, an id with NUL, retry with and
# without digits, an unknown field, an event without data, and a last event without its
# blank line. SSE_PIECES splits it where the edges are: the BOM, a CRLF, two CRs and a
# UTF-8 character each straddle two pieces.
SSE_BODY = (b"\xef\xbb\xbf: welcome\r\n"
            b"retry: 2500\r\nid: 1\r\ndata: first\r\n\r\n"
            b"event: add\rdata:two\rdata:  lines\r\r"
            b"id: 2\x00x\ndata\nretry: 1s\nunknown: field\n\n"
            b"event: ping\n\n"
            b"id\ndata: last \xe2\x9c\x93\n\n"
            b"data: never dispatched\n")
SSE_PIECES = [1, 2, 10, 27, 42, 18, 50, 22]


def send_chunk(sock, data):
    sock.sendall(f"{len(data):x}\r\n".encode() + data + b"\r\n")


def sse(handler, method, query, *_):
    """Sends SSE_BODY in chunks split at its edges, `pause` seconds apart (0.02 by default);
    with `cut=1` closes the connection without the last chunk, after the events."""
    pause = seconds(query, "pause", 0.02)
    handler.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                            b"Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    offset = 0
    for size in SSE_PIECES + [len(SSE_BODY)]:
        piece = SSE_BODY[offset:offset + size]
        if not piece:
            break
        send_chunk(handler.request, piece)
        offset += len(piece)
        time.sleep(pause)
    if query.get("cut") == "1":
        return  # closes without the last chunk
    handler.request.sendall(b"0\r\n\r\n")


def chunked_cut(handler, method, query, *_):
    """Sends `count` chunks (3 by default) of 10 bytes, then closes without the last chunk."""
    handler.request.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n"
                            b"Connection: close\r\n\r\n")
    for index in range(int(query.get("count", "3"))):
        send_chunk(handler.request, bytes([ord("a") + index % 26]) * 10)
        time.sleep(0.05)


def long_line(handler, method, query, *_):
    """Sends `n` bytes of "a" (4 MiB by default) without a line end, chunked, then one more
    every 0.05 s for `seconds` (5 by default); records how many were sent when the client
    goes away, and the client's port (see /_seen)."""
    count = min(int(query.get("n", str(4 << 20))), MAX_BYTES)
    sent = 0
    try:
        handler.request.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n"
                                b"Connection: close\r\n\r\n")
        while sent < count:
            piece = b"a" * min(65536, count - sent)
            send_chunk(handler.request, piece)
            sent += len(piece)
        # Goes on a byte at a time, so a client that went away is noticed.
        until = time.monotonic() + seconds(query, "seconds", 5)
        while time.monotonic() < until:
            send_chunk(handler.request, b"a")
            sent += 1
            time.sleep(0.05)
        end = "completed"
    except OSError:
        end = "aborted"
    handler.server.record({end: "/long-line", "sent": sent, "tag": query.get("tag"), "port": handler.client_address[1]})


# Redirects


def redirect(handler, method, query, *_):
    """Redirects to `to` with status `code` (302 by default) and the body `body` (none by default)."""
    code = int(query.get("code", "302"))
    reply(handler.request, code, query.get("body", "").encode(), {"Location": query.get("to", "/echo")},
          reason="Redirect", method=method)


def chain(handler, method, query, *_):
    """Redirects `n` times (to itself with n - 1), then answers 200 with the body `done`."""
    hops = int(query.get("n", "0"))
    if hops <= 0:
        reply(handler.request, 200, b"done", {"Content-Type": "text/plain"}, method=method)
        return
    location = f"/chain?n={hops - 1}" + (f"&tag={query['tag']}" if "tag" in query else "")
    reply(handler.request, 302, b"", {"Location": location}, reason="Found", method=method)


# Bookkeeping


def requests_seen(handler, method, query, *_):
    """What the server received (and the transfers aborted), only those with `tag` if given."""
    tag = query.get("tag")
    log = [entry for entry in handler.server.seen() if tag is None or entry.get("tag") == tag]
    reply(handler.request, 200, json.dumps(log).encode(), {"Content-Type": "application/json"})


def open_sink(handler, *_):
    """Opens a new listener that counts the connections and bytes it receives."""
    sink = Sink()
    handler.server.sinks[sink.port] = sink
    reply(handler.request, 200, json.dumps({"port": sink.port}).encode(), {"Content-Type": "application/json"})


def sink_stats(handler, method, query, *_):
    """How many connections and bytes the sink on `port` has received."""
    sink = handler.server.sinks.get(int(query.get("port", "0")))
    if sink is None:
        reply(handler.request, 404, b"no such sink", reason="Not Found")
        return
    reply(handler.request, 200, json.dumps(sink.stats()).encode(), {"Content-Type": "application/json"})


class Sink:
    """A raw TCP listener on 127.0.0.1 that counts accepted connections and received bytes,
    answers each connection with an empty 200, and closes after SINK_LIFETIME seconds."""

    def __init__(self):
        self.lock = threading.Lock()
        self.connections = 0
        self.bytes = 0
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.listener.settimeout(1)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        closing = time.monotonic() + SINK_LIFETIME
        while time.monotonic() < closing:
            try:
                connection, _ = self.listener.accept()
            except socket.timeout:
                continue
            with self.lock:
                self.connections += 1
            threading.Thread(target=self.drain, args=(connection,), daemon=True).start()
        self.listener.close()

    def drain(self, connection):
        with connection:
            connection.settimeout(MAX_STALL)  # as long as Handler waits for a request
            data = b""
            try:
                while b"\r\n\r\n" not in data:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                    with self.lock:
                        self.bytes += len(chunk)
                if data:
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            except OSError:
                pass

    def stats(self):
        with self.lock:
            return {"connections": self.connections, "bytes": self.bytes}


BEHAVIOURS = {
    "/stall": stall,
    "/five-then-stall": five_then_stall,
    "/trickle": trickle,
    "/garbage": garbage,
    "/empty": empty,
    "/partial": partial,
    "/reset": reset,
    "/echo": echo,
    "/status": status,
    "/chunked": chunked,
    "/resource": resource,
    "/personal": personal,
    "/set-cookie": set_cookie,
    "/challenge": challenge,
    "/slow": slow,
    "/bytes": send_bytes,
    "/ranged": ranged,
    "/ranged-ignoring": ranged_ignoring,
    "/ranged-changing": ranged_changing,
    "/redirect": redirect,
    "/sse": sse,
    "/chunked-cut": chunked_cut,
    "/long-line": long_line,
    "/chain": chain,
    "/gate": gate,
    "/_open": open_gate,
    "/_most-at-once": most_at_once,
    "/_seen": requests_seen,
    "/_sink": open_sink,
    "/_sink-stats": sink_stats,
}



# Cookies: routes for the cookie rules (RFC 6265), kept together in this block.


def reply_setting_cookies(handler, status, reason, cookies, headers=None, method="GET", body=b""):
    """Like `reply`, with one Set-Cookie field per cookie (a dict cannot repeat a field)."""
    head = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {len(body)}", "Connection: close"]
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    head += [f"Set-Cookie: {cookie}" for cookie in cookies]
    payload = b"" if method == "HEAD" else body
    handler.request.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload)


def cookies_set(handler, method, query, *_):
    """Answers 200 with one Set-Cookie field per `|`-separated value of `cookies`."""
    cookies = [cookie for cookie in query.get("cookies", "").split("|") if cookie]
    reply_setting_cookies(handler, 200, "OK", cookies, {"Content-Type": "text/plain"}, method, b"set")


def cookies_login(handler, method, query, *_):
    """A login that answers 302 to `to` (/cookies/echo by default) and sets
    `session=<session>` (`abc` by default) with Path=/ and HttpOnly on that 302."""
    cookie = f"session={query.get('session', 'abc')}; Path=/; HttpOnly"
    reply_setting_cookies(handler, 302, "Found", [cookie], {"Location": query.get("to", "/cookies/echo")},
                          method)


def cookies_echo(handler, method, query, headers, body):
    """Answers 200 with the Cookie field the request carried as the body (empty without one)."""
    cookie = "; ".join(headers.get("cookie", []))
    reply(handler.request, 200, cookie.encode(), {"Content-Type": "text/plain"}, method=method)


BEHAVIOURS.update({
    "/cookies/set": cookies_set,
    "/cookies/login": cookies_login,
    "/cookies/echo": cookies_echo,
    "/cookies/admin/echo": cookies_echo,
})


# Headers FoundationNetworking on Linux cannot take: routes kept together in this block.


def odd_header(handler, method, query, *_):
    """Answers 200 with one header FoundationNetworking fails the call on: `kind=latin1`
    (the default) `X-Note: caf\\xe9`, `kind=cookie` a Set-Cookie whose value is Latin-1,
    `kind=nul` a NUL byte in `X-Note`, `kind=encoding` a Content-Encoding nobody knows; or
    with `kind=utf8`, `X-Note: café` in UTF-8, which it reads."""
    field = {
        "utf8": "X-Note: café".encode(),
        "latin1": b"X-Note: caf\xe9",
        "cookie": b"Set-Cookie: name=Jos\xe9; Path=/",
        "nul": b"X-Note: a\x00b",
        "encoding": b"Content-Encoding: x-unknown",
    }[query.get("kind", "latin1")]
    body = b"body"
    handler.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n" % len(body)
                            + field + b"\r\n\r\n" + (b"" if method == "HEAD" else body))


BEHAVIOURS["/odd-header"] = odd_header


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 1024  # hundreds of requests arrive at once in the concurrency tests

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Lock()
        self.log = []
        self.sinks = {}
        self.active = {}
        self.peak = {}
        self.attempts = {}
        self.gates = {}
        self.accepted = threading.local()  # when the connection this thread serves was accepted
        path = os.environ.get("FAULT_SERVER_TIMING_LOG")
        self.timing_log = open(path, "a") if path else None

    def process_request(self, request, client_address):
        accepted = time.time()

        def serve():
            self.accepted.time = accepted
            self.process_request_thread(request, client_address)
        threading.Thread(target=serve, daemon=True).start()

    def log_timing(self, entry):
        if self.timing_log is None:
            return
        with self.lock:
            self.timing_log.write(json.dumps(entry) + "\n")
            self.timing_log.flush()

    def record(self, entry):
        if entry.get("tag") is None:
            return
        with self.lock:
            self.log.append(entry)

    def seen(self):
        with self.lock:
            return list(self.log)

    def attempt(self, tag):
        """Counts a request of `tag` and returns its number: 1 for the first."""
        with self.lock:
            self.attempts[tag] = self.attempts.get(tag, 0) + 1
            return self.attempts[tag]

    def gate(self, tag):
        """The event that lets the `/gate` requests of `tag` answer."""
        with self.lock:
            return self.gates.setdefault(tag, threading.Event())

    def enter(self, group):
        with self.lock:
            self.active[group] = self.active.get(group, 0) + 1
            self.peak[group] = max(self.peak.get(group, 0), self.active[group])

    def leave(self, group):
        with self.lock:
            self.active[group] -= 1

    def most(self, group):
        with self.lock:
            return self.peak.get(group, 0)


def main():
    server = Server()
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the parent closes the pipe or dies
    server.shutdown()


if __name__ == "__main__":
    main()
