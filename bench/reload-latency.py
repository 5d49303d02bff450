#!/usr/bin/env python3
"""Time from saving an entry to the live-reload event of `kbook serve`.

usage: bench/reload-latency.py KBOOK_BINARY BOOK_DIR [RUNS]

Starts `kbook serve --port 0` on a copy-free book (it edits one entry and restores it),
listens on the server-sent event stream, appends a line to one entry RUNS times and prints
the median and p95 latency from the write to the `reload` event, plus the first-build time.
"""
import glob, os, socket, statistics, subprocess, sys, threading, time

kbook, book = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
dest = os.path.join("/tmp", "kbook-reload-bench-site")
t0 = time.time()
proc = subprocess.Popen([kbook, "serve", "--port", "0", "--book", book, "--dest", dest],
                        stderr=subprocess.PIPE, text=True)
addr = None
for line in proc.stderr:
    if " at http://" in line:
        addr = line.split(" at http://")[1].split("/")[0]
        break
first_build = time.time() - t0
# Keep reading the server's stderr (diagnostics of every rebuild, stage timings with
# KBOOK_TIMINGS=1): passed on to ours, since a full pipe would block the server.
threading.Thread(target=lambda: [sys.stderr.write(l) for l in proc.stderr], daemon=True).start()
host, port = addr.split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"GET /__kbook/events HTTP/1.1\r\nHost: x\r\n\r\n")
f = s.makefile("rb")

def wait_event(name):
    current = None
    while True:
        line = f.readline().decode().strip()
        if line.startswith("event: "):
            current = line[7:]
        elif line.startswith("data: ") and current == name:
            return

wait_event("hello")
entry = sorted(glob.glob(os.path.join(book, "content", "*", "*.md")))[0]
original = open(entry, encoding="utf-8").read()
times = []
try:
    for i in range(runs):
        start = time.time()
        with open(entry, "w", encoding="utf-8") as out:
            out.write(original + f"\nEdit number {i}.\n")
        wait_event("reload")
        times.append((time.time() - start) * 1000)
finally:
    with open(entry, "w", encoding="utf-8") as out:
        out.write(original)
    proc.terminate()
times.sort()
p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
print(f"first build + start: {first_build:.2f} s; save -> reload over {runs} edits: "
      f"median {statistics.median(times):.0f} ms, p95 {p95:.0f} ms (includes the 40 ms debounce)")
