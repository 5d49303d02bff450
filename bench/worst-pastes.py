#!/usr/bin/env python3
"""Time `kbook search --stdin` on pastes built to be slow, against an ordinary long log.

usage: bench/worst-pastes.py KBOOK_BINARY SITE_DIR [RUNS] [CAP_SECONDS]

Each paste is 256 KiB, the most a query reads (`clamp_input`): one long line of spaces, of one
word, of CamelCase parts, of masked values, lines a terminal could have cut, and so on. The
baseline is a real-looking log of the same size (a trace repeated). Prints the median of RUNS
runs per paste and its ratio to the baseline; a reading step that is quadratic in a line's
length shows as a ratio in the hundreds. A run longer than CAP_SECONDS (default 120) is
stopped and shown as `> CAP`.
"""
import statistics, subprocess, sys, time

kbook, site = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
cap = float(sys.argv[4]) if len(sys.argv) > 4 else 120.0
SIZE = 256 * 1024

TRACE = (
    "2024-05-01 10:00:00,123 ERROR org.apache.flink.runtime.taskmanager.Task [] - Sink: jdbc (1/1) switched from RUNNING to FAILED.\n"
    "java.sql.BatchUpdateException: Deadlock found when trying to get lock; try restarting transaction\n"
    "\tat com.mysql.cj.jdbc.ClientPreparedStatement.executeBatchSerially(ClientPreparedStatement.java:853)\n"
    "\tat org.apache.flink.connector.jdbc.internal.JdbcOutputFormat.flush(JdbcOutputFormat.java:200)\n"
    "Caused by: com.mysql.cj.jdbc.exceptions.MySQLTransactionRollbackException: Deadlock found when trying to get lock\n"
    "\t... 12 more\n"
)


def fill(unit: str) -> str:
    return (unit * (SIZE // len(unit) + 1))[:SIZE]


PASTES = {
    "baseline: a trace repeated": fill(TRACE),
    "one line of spaces": "a." + " " * (SIZE - 3) + "b",
    "one word": "a" * SIZE,
    "one CamelCase identifier": fill("aB"),
    "one dotted name": fill("ab."),
    "byte escapes in one line": fill("Exception\\\\xF0a.B.c(http://a/b?c=d[--- "),
    "lines of one width (a terminal's cut)": fill("x" * 79 + "\n"),
    "words of one line": fill("at "),
    "frames in one line": fill("at a.B.c( "),
    "quotes": fill("'a \"b "),
    "CJK and Latin glued": fill("a中"),
    "log records in one line": fill("2024-05-01 10:00:00 ERROR x "),
    "JSON records": fill('{"msg":"x","stack_trace":"a\\n\\tat b.C.d(C.java:1)"}\n'),
}


def time_search(text: str):
    """The median time of `runs` searches, or None when one ran longer than `cap`."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        try:
            subprocess.run([kbook, "search", "--stdin", "--site", site, "--limit", "10"],
                           input=text.encode(), capture_output=True, check=False, timeout=cap)
        except subprocess.TimeoutExpired:
            return None
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


base = None
print(f"{'paste (256 KiB)':40} {'median s':>9} {'× baseline':>11}")
for name, text in PASTES.items():
    t = time_search(text)
    if t is None:
        print(f"{name:40} {'> ' + str(int(cap)):>9} {'> ' + str(int(cap / base)):>11}")
        continue
    base = base or t
    print(f"{name:40} {t:9.3f} {t / base:11.2f}")
