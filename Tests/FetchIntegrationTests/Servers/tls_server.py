"""HTTPS servers on 127.0.0.1, one port per way a TLS handshake can fail, standard library
and the `openssl` command only.

At start it makes, in a temporary folder, a certificate authority of its own and the
certificates below (with `openssl`), listens on one free port per case, prints one line of
JSON: {"port": <trusted>, "ca": <CA file>, "<case>": <port>, ...}, and exits (deleting the
folder) when its standard input closes. Each port answers any request with 200 and "ok".

Cases, each a certificate for 127.0.0.1 signed by the CA unless it says otherwise:
  trusted            valid for a day
  untrusted          the same, from another CA that nobody trusts
  selfSigned         signed by itself
  expired            valid in 2020 only
  notYetValid        valid from 2099
  wrongHost          for wrong-host.invalid
  clientCertificate  valid, but the server requires a client certificate (TLS 1.2 at most)
  plain              no TLS: plain HTTP that answers whatever arrives with 400
"""
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading

CA_CONFIG = """
[ ca ]
default_ca = test
[ test ]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = anything
copy_extensions = copy
unique_subject = no
[ anything ]
commonName = supplied
"""
KEY = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1")  # P-256: fast to make


def openssl(folder, *arguments):
    subprocess.run(["openssl", *arguments], cwd=folder, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)


def make_ca(folder, name):
    """A CA in `folder`/`name`.pem with its key and the files `openssl ca` keeps."""
    openssl(folder, "req", "-x509", *KEY, "-nodes", "-keyout", f"{name}.key",
            "-out", f"{name}.pem", "-days", "2", "-subj", f"/CN=Fetch test {name}")


def make_leaf(folder, name, ca, host="127.0.0.1", dates=("-days", "1")):
    """A certificate for `host` signed by `ca` with `dates` (openssl ca options)."""
    kind = "IP" if host[0].isdigit() else "DNS"
    openssl(folder, "req", *KEY, "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
            "-subj", f"/CN={host}", "-addext", f"subjectAltName={kind}:{host}")
    for file, content in (("index.txt", ""), ("serial", "1000\n"), ("ca.cnf", CA_CONFIG)):
        if not os.path.exists(os.path.join(folder, file)):
            with open(os.path.join(folder, file), "w") as handle:
                handle.write(content)
    openssl(folder, "ca", "-batch", "-notext", "-config", "ca.cnf", "-cert", f"{ca}.pem", "-keyfile", f"{ca}.key",
            "-in", f"{name}.csr", "-out", f"{name}.pem", *dates)


def make_self_signed(folder, name):
    openssl(folder, "req", "-x509", *KEY, "-nodes", "-keyout", f"{name}.key", "-out",
            f"{name}.pem", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1")


def serve(listener, answer_with, context):
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=answer_with, args=(connection, context), daemon=True).start()


def answer(connection, context):
    try:
        connection.settimeout(10)
        with context.wrap_socket(connection, server_side=True) as tls:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = tls.recv(65536)
                if not chunk:
                    return
                data += chunk
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n"
                        b"Connection: close\r\n\r\nok")
    except (OSError, ssl.SSLError):
        # The handshake failed and the alert is sent. Closing with the client's request still
        # unread would reset the connection, which may reach the client before the alert: read
        # until the client closes (or 2 s), so the alert is what it reports.
        try:
            connection.settimeout(2)
            while connection.recv(65536):
                pass
        except OSError:
            pass
        connection.close()


def answer_plainly(connection, _context):
    with connection:
        try:
            connection.settimeout(10)
            if connection.recv(65536):
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        except OSError:
            pass


def tls_context(folder, certificate, requires_client=False):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(folder, f"{certificate}.pem"), os.path.join(folder, f"{certificate}.key"))
    if requires_client:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(os.path.join(folder, "ca.pem"))
        # In TLS 1.3 the refusal comes after the handshake, racing the client's request: the
        # client may report the alert, a failed write or a reset. In TLS 1.2 it is part of the
        # handshake, so the client always reports the alert.
        context.maximum_version = ssl.TLSVersion.TLSv1_2
    return context


def listen(answer_with, context=None):
    """A free port on 127.0.0.1 whose connections `answer_with` serves, each on a thread."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    threading.Thread(target=serve, args=(listener, answer_with, context), daemon=True).start()
    return listener.getsockname()[1]


def main():
    folder = tempfile.mkdtemp(prefix="fetch-tls-")
    try:
        make_ca(folder, "ca")
        make_ca(folder, "other-ca")
        make_leaf(folder, "trusted", "ca")
        make_leaf(folder, "untrusted", "other-ca")
        make_self_signed(folder, "self-signed")
        make_leaf(folder, "expired", "ca", dates=("-startdate", "20200101000000Z", "-enddate", "20200102000000Z"))
        make_leaf(folder, "not-yet-valid", "ca",
                  dates=("-startdate", "20990101000000Z", "-enddate", "20991231000000Z"))
        make_leaf(folder, "wrong-host", "ca", host="wrong-host.invalid")
        ports = {
            "port": listen(answer, tls_context(folder, "trusted")),
            "ca": os.path.join(folder, "ca.pem"),
            "untrusted": listen(answer, tls_context(folder, "untrusted")),
            "selfSigned": listen(answer, tls_context(folder, "self-signed")),
            "expired": listen(answer, tls_context(folder, "expired")),
            "notYetValid": listen(answer, tls_context(folder, "not-yet-valid")),
            "wrongHost": listen(answer, tls_context(folder, "wrong-host")),
            "clientCertificate": listen(answer, tls_context(folder, "trusted", requires_client=True)),
            "plain": listen(answer_plainly),
        }
        print(json.dumps(ports), flush=True)
        sys.stdin.read()  # returns when the parent closes the pipe or dies
    except subprocess.CalledProcessError as error:
        print(f"openssl failed: {error.stderr.decode(errors='replace').strip()}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
