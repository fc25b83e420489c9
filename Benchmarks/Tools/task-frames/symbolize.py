#!/usr/bin/env python3
"""Names the frames in a task-frames file: `symbolize.py /tmp/task-frames-<pid>.txt`.

Each line `size file offset` becomes `size function` (addr2line, then `swift demangle`)."""
import collections
import re
import subprocess
import sys

FRAME = re.compile(r"\s+(\d+) (\S+) (0x[0-9a-f]+)")
lines = open(sys.argv[1]).read().splitlines()
wanted = collections.defaultdict(set)
for line in lines:
    match = FRAME.match(line)
    if match:
        wanted[match.group(2)].add(match.group(3))
names = {}
for binary, offsets in wanted.items():
    offsets = sorted(offsets)
    found = subprocess.run(["addr2line", "-f", "-e", binary, *offsets], capture_output=True, text=True).stdout.splitlines()
    demangled = subprocess.run(
        ["swift", "demangle", "--simplified", "--compact"], input="\n".join(found[0::2]), capture_output=True, text=True
    ).stdout.splitlines()
    for offset, name in zip(offsets, demangled):
        names[(binary, offset)] = name
for line in lines:
    match = FRAME.match(line)
    print(f"  {match.group(1):>6} {names.get((match.group(2), match.group(3)), '?')[:200]}" if match else line)
