#!/usr/bin/env python3
"""Runs one step of CI under a time budget, so that a hang fails CI with a diagnosis.

    python3 .ci/watchdog.py --budget MINUTES [--test-limit SECONDS] -- COMMAND...

The command runs in a process group of its own, its output passed through line by line.
From Swift Testing's lines ("Test x() started.", "Test x() passed ...") the watchdog knows
which tests are running. When the step runs past its budget, or one test runs longer than
the test limit (120 s by default), it prints the tests still running, the process tree,
and every thread's stack of each test process (the test binary and the child runs it
started) with gdb, then kills the group and exits with status 124. Otherwise it exits
with the command's status.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

STARTED = re.compile(r"Test (\S+?\(.*?\)) started\.")
ENDED = re.compile(r"Test (\S+?\(.*?\)) (?:with \d+ test cases? )?(?:passed|failed|skipped)")


def descendants(root):
    """The pids under `root` (itself included), from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def diagnose(reason, root, running):
    print(f"\n== watchdog: {reason}", flush=True)
    now = time.monotonic()
    print(f"== tests still running ({len(running)}):")
    for name, start in sorted(running, key=lambda entry: entry[1]):
        print(f"   {name}  (for {now - start:.0f} s)")
    pids = descendants(root)
    print("== processes:")
    for pid in pids:
        print(f"   {pid}: {command_line(pid)[:300]}")
    gdb = shutil.which("gdb")
    for pid in pids:
        if ".xctest" not in command_line(pid):
            continue
        print(f"== stacks of {pid}: {command_line(pid)[:200]}", flush=True)
        if gdb is None:
            print("   (gdb is not installed)")
            continue
        try:
            subprocess.run([gdb, "-p", str(pid), "-batch", "-ex", "thread apply all bt"],
                           stdout=sys.stdout, stderr=subprocess.STDOUT, timeout=180)
        except subprocess.TimeoutExpired:
            print("   (gdb did not finish within 180 s)")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=float, required=True, help="minutes the step may take")
    parser.add_argument("--test-limit", type=float, default=120, help="seconds one test may take")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    # Line-buffered output in the command and its children, so that the lines that say which
    # tests run arrive as they are written, not when a buffer fills.
    if shutil.which("stdbuf"):
        command = ["stdbuf", "-oL", "-eL"] + command
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    lock = threading.Lock()
    running = []  # (name, start), one entry per test running

    def pass_through():
        for raw in process.stdout:
            line = raw.decode(errors="replace")
            sys.stdout.write(line)
            sys.stdout.flush()
            with lock:
                if started := STARTED.search(line):
                    running.append((started.group(1), time.monotonic()))
                elif ended := ENDED.search(line):
                    for index, (name, _) in enumerate(running):
                        if name == ended.group(1):
                            del running[index]
                            break

    reader = threading.Thread(target=pass_through, daemon=True)
    reader.start()
    deadline = time.monotonic() + arguments.budget * 60
    while process.poll() is None:
        time.sleep(1)
        now = time.monotonic()
        with lock:
            late = [(name, start) for name, start in running if now - start > arguments.test_limit]
            snapshot = list(running)
        reason = None
        if now > deadline:
            reason = f"the step ran past its budget of {arguments.budget:g} min"
        elif late:
            reason = f"{late[0][0]} ran past the limit of {arguments.test_limit:g} s for one test"
        if reason:
            diagnose(reason, process.pid, snapshot)
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            print(f"== watchdog: stopped `{' '.join(arguments.command)}`: {reason}", file=sys.stderr)
            sys.exit(124)
    reader.join(timeout=10)
    sys.exit(process.returncode)


if __name__ == "__main__":
    main()
