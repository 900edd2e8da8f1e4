#!/usr/bin/env python3
"""Schemathesis against a live `seatmap serve` (make test-api, in make test-all).

Starts the service over a copy of the examples with a SQLite store, creates
the show the document's examples name ("tonight", of cinema-12x18), and
runs schemathesis (PyPI, in .build/browser-venv) on GET /openapi.json with
two checks: no answer is a server error (5xx), and every answer matches
the schema the document gives for its status. Exit 0 when both hold.
"""
import argparse, glob, json, os, shutil, subprocess, sys, tempfile, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seatmap", required=True)
    ap.add_argument("--st", default=os.path.join(ROOT, ".build/browser-venv/bin/st"))
    ap.add_argument("--max-examples", default="25")
    a = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="seatmap-api-")
    for hall in glob.glob(os.path.join(ROOT, "Examples", "*.json")):
        shutil.copy(hall, folder)
    log = open(os.path.join(folder, "serve.log"), "w")
    proc = subprocess.Popen([a.seatmap, "serve", "--halls", folder, "--store", os.path.join(folder, "store.db"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        line = proc.stdout.readline()
        base = "http://127.0.0.1:%d" % int(line.rsplit(":", 1)[1].split()[0])
        req = urllib.request.Request(base + "/shows/tonight", method="POST", data=json.dumps({"hall": "cinema-12x18"}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.status in (200, 201), r.status
        # Long polls (wait, up to 30 s) answer within the timeout.
        cmd = [a.st, "run", base + "/openapi.json", "--checks", "not_a_server_error,response_schema_conformance",
               "--max-examples", a.max_examples, "--seed", "1", "--workers", "2", "--request-timeout", "45",
               "--no-color", "--suppress-health-check", "all"]
        print(" ".join(cmd), flush=True)
        code = subprocess.call(cmd)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()
        if proc.returncode not in (0, -15, 143):
            print("seatmap serve exited with %s; its log:" % proc.returncode)
        with open(os.path.join(folder, "serve.log")) as f:
            tail = f.read()[-3000:]
        if tail.strip():
            print("--- seatmap serve's log (end) ---\n" + tail)
        shutil.rmtree(folder, ignore_errors=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
