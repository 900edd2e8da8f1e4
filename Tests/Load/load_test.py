#!/usr/bin/env python3
"""Load test of `seatmap serve` on 127.0.0.1 only, with bounded counts: C
concurrent clients (default 200), each making R mixed requests (default 20:
PNG and SVG renders, hit tests and selections with its hold token on a show
of its own, which it creates first), every answer checked; then every
client's held selection is read back and must be exactly the seats it
selected (no lost selection), and its order must sell exactly those seats.
Prints requests per second and p50 / p99 latency per kind.

    Tests/Load/load_test.py --seatmap .build/release/seatmap [--clients 200] [--requests 20]

Standard library only. Exit 0 when every request succeeded and nothing was
lost, 1 otherwise.
"""
import argparse, http.client, json, os, random, shutil, subprocess, sys, tempfile, threading, time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seatmap", required=True)
    ap.add_argument("--hall", default="Examples/imax-3-sections.json")
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--workers", type=int, default=0, help="serve --workers (default: cores)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="seatmap-load-")
    name = os.path.splitext(os.path.basename(a.hall))[0]
    hall = os.path.join(tmp, name + ".json")
    shutil.copy(a.hall, hall)
    # 200 clients on this machine: one address, no per-address token limit.
    cmd = [os.path.abspath(a.seatmap), "serve", "--halls", tmp, "--store", os.path.join(tmp, "store.db"), "--port", "0",
           "--max-tokens-per-address", "0"]
    if a.workers:
        cmd += ["--workers", str(a.workers)]
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=open(os.path.join(tmp, "serve.log"), "w"), text=True)
    try:
        port = int(server.stdout.readline().rsplit(":", 1)[1].split()[0])
        layout = json.loads(subprocess.run([a.seatmap, "layout", hall, "--json"], check=True, capture_output=True, text=True).stdout)
        available = [s["id"] for s in layout["seats"] if s["status"] == "available" and s.get("type", "standard") == "standard"]
        times = {"png": [], "svg": [], "hit": [], "select": []}
        errors, lost = [], []
        lock = threading.Lock()

        def request(method, path, body=None):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            t0 = time.perf_counter()
            c.request(method, path, body=json.dumps(body) if body is not None else None,
                      headers={"Content-Type": "application/json"} if body is not None else {})
            r = c.getresponse()
            data = r.read()
            c.close()
            return r.status, data, time.perf_counter() - t0

        def client(i):
            rng = random.Random(i)
            show = "load-%d" % i
            mine = rng.sample(available, 3)
            selected = set()
            kinds = (["png", "svg", "hit", "select"] * (a.requests // 4 + 1))[:a.requests]
            rng.shuffle(kinds)
            toggles = list(mine)
            token = None
            status, data, _ = request("POST", "/shows/%s" % show, {"hall": name})
            if status != 201:
                with lock:
                    errors.append("%s create: status %d %s" % (show, status, data[:120]))
                return
            for kind in kinds:
                try:
                    if kind == "png":
                        status, data, dt = request("GET", "/halls/%s.png?zoom=%s" % (name, rng.choice(["1", "1.5"])))
                        ok = status == 200 and data[:8] == b"\x89PNG\r\n\x1a\n"
                    elif kind == "svg":
                        status, data, dt = request("GET", "/halls/%s.svg?theme=%s" % (name, rng.choice(["light", "dark"])))
                        ok = status == 200 and b"<svg" in data[:400]
                    elif kind == "hit":
                        pts = [[rng.uniform(0, 1200), rng.uniform(0, 1500)] for _ in range(5)]
                        status, data, dt = request("POST", "/halls/%s/hit" % name, {"points": pts, "zoom": 1.37, "scale": 2})
                        ok = status == 200 and len(json.loads(data)) == 5
                    else:
                        seat = toggles.pop() if toggles else "99-99-99"  # then only read the selection back
                        body = {"toggle": [seat], "singleSeatRule": False}
                        if token:
                            body["token"] = token
                        status, data, dt = request("POST", "/shows/%s/select" % show, body)
                        ok = status == 200
                        if ok:
                            answer = json.loads(data)
                            token = token or answer["token"]
                            if answer["results"][0]["result"] == "selected":
                                selected.add(seat)
                            ok = set(answer["selected"]) == selected
                            if not ok:
                                with lock:
                                    lost.append("%s: server holds %s, client selected %s" % (show, sorted(answer["selected"]), sorted(selected)))
                    with lock:
                        times[kind].append(dt)
                        if not ok:
                            errors.append("%s %s: status %d %s" % (show, kind, status, data[:120]))
                except Exception as e:  # a refused or broken connection counts as an error
                    with lock:
                        errors.append("%s %s: %r" % (show, kind, e))
            # Read the token's selection back once more, then order it.
            if token is None:
                return
            status, data, _ = request("POST", "/shows/%s/select" % show, {"token": token, "toggle": ["99-99-99"]})
            held = set(json.loads(data)["selected"]) if status == 200 else None
            if held != selected:
                with lock:
                    lost.append("%s: held %s, selected %s" % (show, sorted(held or []), sorted(selected)))
            if selected:
                status, data, _ = request("POST", "/shows/%s/order" % show, {"token": token, "orderId": "load-order-%d" % i})
                sold = set(json.loads(data).get("sold", [])) if status == 200 else None
                if sold != selected:
                    with lock:
                        lost.append("%s: order sold %s, selected %s (status %d)" % (show, sorted(sold or []), sorted(selected), status))

        threads = [threading.Thread(target=client, args=(i,)) for i in range(a.clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        total = sum(len(v) for v in times.values())
        print("%d clients x %d requests: %d requests in %.1f s, %.0f requests/s" % (a.clients, a.requests, total, elapsed, total / elapsed))
        every = sorted(t for v in times.values() for t in v)

        def pct(v, p):
            return v[min(len(v) - 1, int(p * len(v)))] * 1000 if v else float("nan")
        print("all: p50 %.0f ms, p99 %.0f ms" % (pct(every, 0.5), pct(every, 0.99)))
        for k, v in times.items():
            v.sort()
            print("%s: %d requests, p50 %.0f ms, p99 %.0f ms" % (k, len(v), pct(v, 0.5), pct(v, 0.99)))
        for e in errors[:10]:
            print("ERROR", e)
        for l in lost[:10]:
            print("LOST", l)
        print("%d errors, %d lost selections" % (len(errors), len(lost)))
        return 0 if not errors and not lost else 1
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
