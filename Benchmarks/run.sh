#!/usr/bin/env bash
# Runs the Fetch benchmark: builds it in release mode, starts nginx on a free loopback
# port with generated fixtures, runs every case against Fetch and raw URLSession, stops
# nginx. The report (Markdown) goes to standard output, progress to standard error.
# Arguments are passed on to `fetch-bench run`, for example:
#   ./run.sh --rounds 3 --scale 0.3          a quicker, noisier look
#   ./run.sh --only "16 in flight" --parts throughput
# or, with `explore` first, to `fetch-bench explore` (one case through client variants):
#   ./run.sh explore --case "1 in flight" --sides fetch,raw,raw-delegate,raw-hop,raw-delegate-hop
# or, with `stream` first, to `fetch-bench stream` (a 1 MiB/s reader of a fast 1 GiB stream):
#   ./run.sh stream --seconds 60 --rate 1
# or, with `streams` first, to `fetch-bench streams` (stream throughput, and other calls'
# latency while a stream's reader is fast or stopped, against raw URLSession):
#   ./run.sh streams --rounds 5
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

# What the run needs from the system: nginx (the server) and wrk (to show nginx is not the
# bottleneck), both from Debian's packages.
missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing ${missing[*]}" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
    else
        echo "please install: ${missing[*]}" >&2
        exit 1
    fi
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

echo "building (release)" >&2
(cd "$here" && swift build -c release >&2)
bench="$here/.build/release/fetch-bench"

work="$(mktemp -d)"
stop_nginx() {
    if [ -s "$work/nginx.pid" ]; then
        local pid
        pid="$(cat "$work/nginx.pid")"
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$work"
}
trap stop_nginx EXIT

# Fixtures: ~200 B, 1 MiB, 100 MiB and 1 GiB. The large ones are sparse files, so they
# take no disk space and nginx serves them from the page cache.
mkdir -p "$work/www" "$work/temp"
chmod 755 "$work" "$work/www"
head -c 200 /dev/zero | tr '\0' 'a' > "$work/www/small.txt"
head -c $((1 << 20)) /dev/urandom > "$work/www/1m.bin"
truncate -s 100M "$work/www/100m.bin"
truncate -s 1G "$work/www/1g.bin"
chmod 644 "$work/www/"*

port="$("$bench" free-port)"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    # The ended-transfer cases read how much nginx sent before the client left.
    log_format transfer '\$arg_tag \$bytes_sent \$status \$request_time';
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 300s;
    # nginx closes a keep-alive connection after 1,000 requests by default, which would
    # count as new connections against the clients.
    keepalive_requests 10000000;
    client_body_temp_path $work/temp/body;
    proxy_temp_path $work/temp/proxy;
    fastcgi_temp_path $work/temp/fastcgi;
    uwsgi_temp_path $work/temp/uwsgi;
    scgi_temp_path $work/temp/scgi;
    server {
        listen 127.0.0.1:$port backlog=4096;
        root $work/www;
        # POST of 1 KB: the body is read and dropped, the answer is "ok\n".
        location = /post { client_max_body_size 1m; return 200 "ok\n"; }
        # The 1 GiB file for the ended-transfer cases: at full speed, and at 200 MiB/s.
        location /full/ { alias $work/www/; access_log $work/transfer.log transfer; }
        location /rated/ { alias $work/www/; limit_rate 200m; access_log $work/transfer.log transfer; }
        # Accepted-connection counter read by the benchmark.
        location = /nginx-status { stub_status; }
    }
}
CONF
"$nginx_bin" -p "$work" -c "$work/nginx.conf" -e "$work/error.log"
for _ in $(seq 50); do
    [ -s "$work/nginx.pid" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done
echo "nginx on 127.0.0.1:$port, pid $(cat "$work/nginx.pid")" >&2

swift_version="$(swift --version 2>&1 | grep -o 'Swift version [0-9.]*' | head -1)"
nginx_version="$("$nginx_bin" -v 2>&1 | sed 's/.*nginx\//nginx /')"
wrk_version="$( (wrk --version 2>&1 || true) | head -1 | awk '{print "wrk " $2}' | sed 's|debian/||')"
command=run
if [ "${1:-}" = explore ] || [ "${1:-}" = stream ] || [ "${1:-}" = streams ]; then command="$1"; shift; fi
"$bench" "$command" --port "$port" --nginx-pid "$(cat "$work/nginx.pid")" --transfer-log "$work/transfer.log" \
    --note "$swift_version; $nginx_version with 1 worker on 127.0.0.1; $wrk_version; $(uname -sr)." "$@"
