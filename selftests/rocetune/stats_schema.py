#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Validate `rocetune -j stats` / `-j top` output against its published
JSON Schema (Documentation/schema/rocetune-stats.v1.json, installed beside
this script), or another command's: `stats_schema.py rocetune-doctor.v1.json`. Reads one or more documents, one per line, on stdin; exit 1
with the first error, 0 if all conform (and there was at least one)."""
import json
import os
import sys

import jsonschema

here = os.path.dirname(os.path.abspath(__file__))
name = sys.argv[1] if len(sys.argv) > 1 else "rocetune-stats.v1.json"
for path in (os.path.join(here, name),
             os.path.join(here, "../../Documentation/schema", name)):
    if os.path.exists(path):
        break
with open(path) as f:
    schema = json.load(f)
validator = jsonschema.Draft202012Validator(schema)
n = 0
for line in sys.stdin:
    if not line.strip():
        continue
    try:
        doc = json.loads(line)
    except json.JSONDecodeError as e:
        print(f"# stats_schema: document {n + 1}: not JSON: {e}")
        sys.exit(1)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        print(f"# stats_schema: document {n + 1}: $.{'.'.join(str(p) for p in e.path)}: {e.message}")
        sys.exit(1)
    n += 1
if not n:
    print("# stats_schema: no document")
    sys.exit(1)
