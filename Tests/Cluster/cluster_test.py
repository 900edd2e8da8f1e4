#!/usr/bin/env python3
"""Several `seatmap serve` instances, one PostgreSQL inventory, behind nginx.

Three instances on 127.0.0.1 share one database (a fresh one on the server
in SEATMAP_TEST_POSTGRES, which scripts/with-postgres.sh starts) behind
Debian's nginx (round robin, its own config in a temporary folder). 200
concurrent clients, each with its own hold token, race for the 150 seats of
one show and the same seats of a second show: they hold, re-toggle and
order through nginx. Midway one instance is killed with SIGKILL.

Checked afterwards: every seat sold at most once per show; every order
answered 200 is in the database; no hold of a live token lost; after the
kill only requests that were in flight may have failed (502 from nginx),
and each failed order, retried with its order id, gets the database's
answer (sold once, never twice). Then orders per second and p50/p99 order
latency with one instance and with three, in the same run.

    scripts/with-postgres.sh python3 Tests/Cluster/cluster_test.py --seatmap .build/release/seatmap

Standard library only (psql from Debian's postgresql-client creates the
database). Exit 0 when every check holds, 1 otherwise.
"""
import argparse, http.client, json, os, random, shutil, signal, socket, subprocess, sys, tempfile, threading, time

FAILURES = []
NGINX_CONF = """
{user}
worker_processes 1;
daemon off;
pid {tmp}/nginx-{port}.pid;
error_log {tmp}/nginx-{port}-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/nginx-body;
    proxy_temp_path {tmp}/nginx-proxy;
    fastcgi_temp_path {tmp}/nginx-fastcgi;
    uwsgi_temp_path {tmp}/nginx-uwsgi;
    scgi_temp_path {tmp}/nginx-scgi;
    upstream seatmap {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://seatmap;
            proxy_set_header Host $host;
            # A refused connection (an instance gone) is tried on the next one;
            # a request already sent is never sent twice (POST is not idempotent).
            proxy_next_upstream error timeout;
            proxy_connect_timeout 2s;
            proxy_read_timeout 60s;
        }}
    }}
}}
"""


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print("FAIL:", what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Client:
    """One HTTP/1.1 connection at a time to host:port; JSON in and out."""

    def __init__(self, port, key=None):
        self.port, self.key = port, key

    def call(self, method, path, body=None, admin=False, timeout=60):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if admin and self.key:
            headers["Authorization"] = "Bearer " + self.key
        t0 = time.perf_counter()
        try:
            c.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            r = c.getresponse()
            data = r.read()
            status = r.status
        finally:
            c.close()
        try:
            answer = json.loads(data) if data else None
        except ValueError:
            answer = None
        return status, answer, time.perf_counter() - t0


def start_instance(seatmap, halls, store, key_file, tmp, k):
    log = open(os.path.join(tmp, "serve-%d.log" % k), "w")
    p = subprocess.Popen([seatmap, "serve", "--halls", halls, "--store", store, "--admin-key-file", key_file, "--port", "0",
                          "--workers", "4", "--hold-ttl", "600",
                          # The buyers all run on this machine: one address, no per-address token limit.
                          "--max-tokens-per-address", "0"], stdout=subprocess.PIPE, stderr=log, text=True)
    line = p.stdout.readline()
    if "listening on" not in line:
        raise RuntimeError("instance %d did not start: %r (see %s)" % (k, line, log.name))
    return p, int(line.rsplit(":", 1)[1].split()[0])


def start_nginx(tmp, ports):
    port = free_port()
    conf = os.path.join(tmp, "nginx-%d.conf" % port)
    servers = "\n".join("        server 127.0.0.1:%d max_fails=1 fail_timeout=3s;" % p for p in ports)
    with open(conf, "w") as f:
        f.write(NGINX_CONF.format(user="user root;" if os.geteuid() == 0 else "", tmp=tmp, port=port, servers=servers))
    p = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-c", conf, "-p", tmp, "-e", os.path.join(tmp, "nginx-%d-start.log" % port)],
                         stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "nginx-%d.out" % port), "w"))
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return p, port
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("nginx did not start (see %s)" % tmp)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else float("nan")


def race(front, seats, clients, shows, kill=None):
    """Each client holds 1-4 seats with its own token in one of `shows`,
    re-toggles one, and orders. Returns what the clients were answered."""
    lock = threading.Lock()
    out = {"orders": [], "failed_orders": [], "holds": {}, "errors": [], "order_times": [], "requests": 0}
    start = threading.Barrier(clients + (1 if kill else 0))

    def client(i):
        rng = random.Random(i)
        show = shows[i % len(shows)]
        token = None
        selected = set()
        start.wait()
        try:
            # Seats near a random spot, so clients collide.
            first = rng.randrange(len(seats))
            wanted = [seats[(first + d) % len(seats)] for d in range(rng.randint(1, 4))]
            unsure = False
            for seat in wanted + [wanted[0], wanted[0]]:  # the last two: deselect and select again
                body = {"toggle": [seat], "singleSeatRule": False}
                if token:
                    body["token"] = token
                sent = time.time()
                try:
                    status, answer, _ = front.call("POST", "/shows/%s/select" % show, body)
                except Exception as e:
                    status, answer = 0, repr(e)
                with lock:
                    out["requests"] += 1
                if status != 200:
                    unsure = True  # it may have been applied before its instance died
                    with lock:
                        out["errors"].append((sent, "select", status, str(answer)[:120]))
                    continue
                token = token or answer.get("token")
                selected = set(answer["selected"])
            if unsure and token:
                # Read the token's holds back (toggling no seat changes nothing).
                status, answer, _ = front.call("POST", "/shows/%s/select" % show, {"toggle": ["99-99-99"], "token": token})
                if status == 200:
                    selected = set(answer["selected"])
            if not selected:
                return
            if rng.random() < 0.25:
                # Some buyers keep their holds (checked to be intact at the end).
                with lock:
                    out["holds"][(show, token)] = selected
                return
            oid = "c%d-%s" % (i, show)
            sent = time.time()
            status, answer, dt = front.call("POST", "/shows/%s/order" % show, {"token": token, "orderId": oid}, admin=True)
            with lock:
                if status == 200:
                    out["orders"].append((show, oid, tuple(sorted(answer["sold"]))))
                    out["order_times"].append(dt)
                elif status == 409:
                    out["holds"][(show, token)] = selected  # nothing sold: the holds must still be there... or expired
                    out["errors"].append((sent, "order409", status, str(answer)[:120]))
                else:
                    out["failed_orders"].append((show, oid, token, selected, status))
                    out["errors"].append((sent, "order", status, str(answer)[:120]))
        except Exception as e:  # a broken connection counts as an error
            with lock:
                out["errors"].append((time.time(), "exception", 0, repr(e)[:120]))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    if kill:
        start.wait()
        # Midway: once a third of the selections have been answered.
        while out["requests"] < kill[0] and any(t.is_alive() for t in threads):
            time.sleep(0.005)
        out["killed_at"] = out["requests"]
        kill[1]()
        # Dead and its sockets closed: from here on no request can reach it.
        out["kill_time"] = time.time()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    out["elapsed"] = time.perf_counter() - t0
    return out


def flash_sale(front, seats, buyers, threads, kill=None):
    """A flash sale: `buyers` buyers over `threads` connections, each holding
    2-4 seats (every other one by best available, the rest side by side at
    a random spot, elsewhere when some are taken) and ordering. A request
    that fails (its instance killed) is read back (holds) or retried with
    its order id (orders). Returns the orders answered 200 and the counts."""
    lock = threading.Lock()
    out = {"orders": [], "refused": 0, "unserved": 0, "failed": 0, "done": 0, "order_times": []}
    queue = list(range(buyers))

    def worker(k):
        rng = random.Random(1000 + k)
        while True:
            with lock:
                if not queue:
                    return
                i = queue.pop()
            count = 2 + i % 3
            token, held = None, []
            try:
                if i % 2 == 0:
                    status, answer, _ = front.call("POST", "/shows/F/best", {"count": count})
                    if status == 200:
                        token, held = answer["token"], answer["seats"]
                    elif status not in (409,):
                        with lock:
                            out["failed"] += 1
                else:
                    for _ in range(8):
                        at = rng.randrange(len(seats) - count)
                        wanted = seats[at:at + count]
                        body = {"toggle": wanted, "singleSeatRule": False}
                        status, answer, _ = front.call("POST", "/shows/F/select", body)
                        if status != 200:
                            with lock:
                                out["failed"] += 1
                            continue  # its hold, if any, expires: the token was never seen
                        if len(answer["selected"]) == count:
                            token, held = answer["token"], answer["selected"]
                            break
                        if answer.get("token"):
                            front.call("POST", "/shows/F/select", {"toggle": answer["selected"], "token": answer["token"]})
                if not token:
                    with lock:
                        out["unserved"] += 1
                    continue
                oid = "flash-%d" % i
                for attempt in range(3):
                    status, answer, dt = front.call("POST", "/shows/F/order", {"token": token, "orderId": oid}, admin=True)
                    if status in (200, 409):
                        break
                with lock:
                    if status == 200:
                        out["orders"].append((oid, tuple(sorted(answer["sold"]))))
                        out["order_times"].append(dt)
                    else:
                        out["refused"] += 1
            except Exception:  # a broken connection: the buyer leaves
                with lock:
                    out["failed"] += 1
            finally:
                with lock:
                    out["done"] += 1

    ts = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    if kill:
        while out["done"] < kill[0] and any(t.is_alive() for t in ts):
            time.sleep(0.01)
        kill[1]()
    for t in ts:
        t.join()
    out["elapsed"] = time.perf_counter() - t0
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seatmap", required=True)
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--bench-clients", type=int, default=120)
    ap.add_argument("--flash-buyers", type=int, default=2000)
    a = ap.parse_args()
    admin_url = os.environ.get("SEATMAP_TEST_POSTGRES")
    if not admin_url:
        print("SEATMAP_TEST_POSTGRES is not set: run this under scripts/with-postgres.sh", file=sys.stderr)
        return 2
    seatmap = os.path.abspath(a.seatmap)
    tmp = tempfile.mkdtemp(prefix="seatmap-cluster-")
    os.chmod(tmp, 0o755)
    halls = os.path.join(tmp, "halls")
    os.mkdir(halls)
    rows = [{"row": r, "price": 50, "seats": [{"column": c, "status": 0} for c in range(1, 16)]} for r in range(1, 11)]
    with open(os.path.join(halls, "arena.json"), "w") as f:
        json.dump({"maxSelectCount": 4, "rows": rows}, f)
    seats = ["1-%d-%d" % (r, c) for r in range(1, 11) for c in range(1, 16)]
    # The flash sale's stadium: 250 rows of 400 seats.
    stadium_rows = [{"row": r, "price": 40 + r % 3 * 10, "seats": [{"column": c, "status": 0} for c in range(1, 401)]} for r in range(1, 251)]
    with open(os.path.join(halls, "stadium.json"), "w") as f:
        json.dump({"maxSelectCount": 4, "rows": stadium_rows}, f)
    stadium_seats = ["1-%d-%d" % (r, c) for r in range(1, 251) for c in range(1, 401)]
    key = "cluster-test-key-%d" % os.getpid()
    key_file = os.path.join(tmp, "admin.key")
    with open(key_file, "w") as f:
        f.write(key + "\n")
    db = "cluster_%d" % os.getpid()
    subprocess.run(["psql", admin_url, "-qc", "CREATE DATABASE %s" % db], check=True)
    store = admin_url.rsplit("/", 1)[0] + "/" + db
    procs = []
    try:
        instances = []
        for k in range(3):
            p, port = start_instance(seatmap, halls, store, key_file, tmp, k)
            procs.append(p)
            instances.append((p, port))
        nginx, front_port = start_nginx(tmp, [port for _, port in instances])
        procs.append(nginx)
        front = Client(front_port, key)
        for show in ["A", "B"]:
            status, answer, _ = front.call("POST", "/shows/%s" % show, {"hall": "arena"}, admin=True)
            check(status == 201, "create show %s: %s %s" % (show, status, answer))

        # The race, with instance 1 killed midway.
        victim = instances[1][0]
        result = race(front, seats, a.clients, ["A", "B"], kill=(a.clients * 5 // 3, lambda: (victim.send_signal(signal.SIGKILL), victim.wait())))
        kill_time = result["kill_time"]
        errors = result["errors"]
        # A request sent after the kill reaches a live instance (a refused
        # connection is tried on the next); only those already sent may fail.
        late = [e for e in errors if e[0] > kill_time and e[1] not in ("order409",)]
        bad = [e for e in errors if e[1] not in ("order409",)]
        print("race: instance killed after %d of about %d selections" % (result["killed_at"], a.clients * 5))
        print("race: %d clients, %d orders answered 200, %d answered 409, %d failed (in flight to the killed instance), "
              "%d errors of requests sent after the kill; %.1f s"
              % (a.clients, len(result["orders"]), sum(1 for e in errors if e[1] == "order409"), len(bad), len(late), result["elapsed"]))
        for e in bad[:8]:
            print("  error:", e)
        check(not late, "requests sent after the kill failed: %s" % late[:3])
        check(all(e[2] in (502, 504, 0) for e in bad), "a failed request was not a gateway error: %s" % bad[:3])
        check(len(bad) <= a.clients, "more requests failed than were in flight: %d" % len(bad))

        # Failed orders, retried with their order id: the database's answer, sold once.
        for show, oid, token, selected, _ in result["failed_orders"]:
            status, answer, _ = front.call("POST", "/shows/%s/order" % show, {"token": token, "orderId": oid}, admin=True)
            if status == 200:
                result["orders"].append((show, oid, tuple(answer["sold"])))
                print("retried order %s: %s (%s)" % (oid, "it had been sold before the instance died" if answer.get("repeated") else "sold now", answer["sold"]))
            else:
                check(status == 409, "retried order %s: %s %s" % (oid, status, answer))

        # What the database says, through a surviving instance.
        for show in ["A", "B"]:
            status, st, _ = front.call("GET", "/shows/%s/status" % show, admin=True)
            check(status == 200, "status of %s: %s" % (show, status))
            stored = {o["orderId"]: tuple(o["seats"]) for o in st["orders"]}
            sold_seats = [s for o in st["orders"] for s in o["seats"]]
            check(len(sold_seats) == len(set(sold_seats)), "show %s: a seat sold twice" % show)
            check(sorted(sold_seats) == sorted(st["seats"]["sold"]), "show %s: sold seats and orders disagree" % show)
            answered = [(oid, sold) for s, oid, sold in result["orders"] if s == show]
            for oid, sold in answered:
                check(sorted(stored.get(oid, ())) == sorted(sold), "show %s: answered order %s %s is not in the store as sold (%s)" % (show, oid, sold, stored.get(oid)))
            holds = {h["token"]: set(h["seats"]) for h in st["holds"]}
            for (s, token), selected in result["holds"].items():
                if s == show and selected:
                    check(holds.get(token) == selected, "show %s: token %s... lost its holds %s (store: %s)"
                          % (show, token[:8], sorted(selected), sorted(holds.get(token, []))))
            print("show %s: %d seats sold in %d orders, %d tokens holding %d seats" % (show, len(sold_seats), len(stored), len(holds),
                                                                                   sum(len(v) for v in holds.values())))
        # The survivors kept answering.
        for p, port in instances:
            if p is victim:
                continue
            status, _, _ = Client(port).call("GET", "/healthz")
            check(status == 200, "instance on %d stopped answering" % port)

        # A long poll on one instance wakes when another instance changes the
        # show (PostgreSQL's NOTIFY: the waiter has no timer of its own).
        waiter, writer = Client(instances[0][1], key), Client(instances[2][1], key)
        c = http.client.HTTPConnection("127.0.0.1", instances[0][1], timeout=60)
        c.request("GET", "/shows/B/seats")
        r = c.getresponse()
        tag = r.getheader("ETag")
        seats_now = json.loads(r.read())["seats"]
        c.close()
        free = [s for s in seats if seats_now.get(s) == "available"]
        polled = {}

        def poll():
            c = http.client.HTTPConnection("127.0.0.1", instances[0][1], timeout=60)
            c.request("GET", "/shows/B/seats?wait=20", headers={"If-None-Match": tag})
            r = c.getresponse()
            polled["status"], polled["body"], polled["at"] = r.status, r.read(), time.perf_counter()
            c.close()
        t = threading.Thread(target=poll)
        t.start()
        time.sleep(0.5)
        check("status" not in polled, "the long poll answered before anything changed")
        t0 = time.perf_counter()
        status, answer, _ = writer.call("POST", "/shows/B/select", {"toggle": [free[0]]})
        t.join()
        check(polled.get("status") == 200 and json.loads(polled["body"])["seats"].get(free[0]) == "held",
              "the long poll on another instance did not see the hold: %s" % polled.get("status"))
        print("long poll on instance 1 answered %.0f ms after a hold through instance 3" % ((polled.get("at", t0) - t0) * 1000))

        # The database stopped: /healthz says so, the show endpoints answer 503,
        # plan renders go on; started again: every instance reconnects.
        ctl = os.environ.get("SEATMAP_TEST_POSTGRES_CTL")
        if ctl:
            survivor = Client(instances[0][1], key)
            subprocess.run(["bash", ctl, "stop"], check=True)
            time.sleep(2.5)  # one health probe (every 2 s)
            status, health, _ = survivor.call("GET", "/healthz")
            check(status == 503 and health and health.get("status") == "degraded" and "storeError" in health,
                  "database down: /healthz answered %s %s" % (status, health))
            status, answer, _ = survivor.call("POST", "/shows/A/select", {"toggle": ["1-1-1"]}, timeout=60)
            check(status == 503 and answer and "store" in answer.get("error", ""), "database down: select answered %s %s" % (status, answer))
            c = http.client.HTTPConnection("127.0.0.1", instances[0][1], timeout=60)
            c.request("GET", "/halls/arena.png")
            r = c.getresponse()
            png = r.read()
            c.close()
            check(r.status == 200 and png[:4] == b"\x89PNG", "database down: a plan render answered %s" % r.status)
            print("database stopped: /healthz 503 (%s), select 503 (%s), plan render 200" % (health.get("storeError", "")[:80] if health else "",
                                                                                     (answer or {}).get("error", "")[:80]))
            subprocess.run(["bash", ctl, "start"], check=True)
            time.sleep(2.5)
            for p, port in instances:
                if p is victim:
                    continue
                status, health, _ = Client(port).call("GET", "/healthz")
                check(status == 200, "database back: instance %d /healthz %s %s" % (port, status, health))
                status, answer, _ = Client(port).call("GET", "/shows/A/seats")
                check(status == 200, "database back: instance %d seats %s" % (port, status))
            print("database started again: the instances reconnected")

        # Orders per second: one instance behind nginx, then three (the dead one restarted).
        p, port = start_instance(seatmap, halls, store, key_file, tmp, 9)
        procs.append(p)
        instances[1] = (p, port)
        figures = {}
        for label, ports in [("1 instance", [instances[0][1]]), ("3 instances", [port for _, port in instances])]:
            ng, ngport = start_nginx(tmp, ports)
            procs.append(ng)
            c = Client(ngport, key)
            show = "bench-%d" % len(ports)
            c.call("POST", "/shows/%s" % show, {"hall": "arena"}, admin=True)
            # Each client holds one seat of its own and orders it: orders never collide, so all succeed.
            n = min(a.bench_clients, len(seats))
            times, errs = [], []
            lock = threading.Lock()
            barrier = threading.Barrier(n)

            def buyer(i):
                barrier.wait()
                s, ans, _ = c.call("POST", "/shows/%s/select" % show, {"toggle": [seats[i]], "singleSeatRule": False})
                if s != 200 or ans["selected"] != [seats[i]]:
                    with lock:
                        errs.append(("select", s))
                    return
                s, ans, dt = c.call("POST", "/shows/%s/order" % show, {"token": ans["token"], "orderId": "b%d" % i}, admin=True)
                with lock:
                    (times.append(dt) if s == 200 else errs.append(("order", s)))
            t0 = time.perf_counter()
            ts = [threading.Thread(target=buyer, args=(i,)) for i in range(n)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            elapsed = time.perf_counter() - t0
            figures[label] = (len(times) / elapsed, pct(times, 0.5), pct(times, 0.99))
            print("%s: %d holds + orders in %.2f s: %.0f orders/s, order p50 %.0f ms, p99 %.0f ms, %d errors"
                  % (label, len(times), elapsed, len(times) / elapsed, pct(times, 0.5), pct(times, 0.99), len(errs)))
            check(not errs, "%s: %d errors: %s" % (label, len(errs), errs[:3]))
            ng.terminate()
            ng.wait(timeout=10)
        one, three = figures["1 instance"][0], figures["3 instances"][0]
        print("orders/s with three instances / with one: %.2fx (one machine: 2 cores shared by PostgreSQL, nginx, the instances and the clients)"
              % (three / one if one else float("nan")))

        # A flash sale on a 100,000-seat show through the three instances,
        # one of them killed once a third of the buyers are done.
        ng, ngport = start_nginx(tmp, [port for _, port in instances])
        procs.append(ng)
        front = Client(ngport, key)
        status, answer, _ = front.call("POST", "/shows/F", {"hall": "stadium"}, admin=True)
        check(status == 201, "create the flash sale's show: %s %s" % (status, answer))
        victim = instances[2][0]
        flash = flash_sale(front, stadium_seats, a.flash_buyers, 120,
                           kill=(a.flash_buyers // 3, lambda: (victim.send_signal(signal.SIGKILL), victim.wait())))
        status, st, _ = front.call("GET", "/shows/F/status", admin=True, timeout=120)
        check(status == 200, "status of the flash sale's show: %s" % status)
        stored = {o["orderId"]: tuple(sorted(o["seats"])) for o in st["orders"]}
        sold = [x for o in st["orders"] for x in o["seats"]]
        check(len(sold) == len(set(sold)), "flash sale: a seat sold twice")
        lost = [oid for oid, seats_sold in flash["orders"] if stored.get(oid) != seats_sold]
        check(not lost, "flash sale: answered orders not in the store: %s" % lost[:5])
        print("flash sale: %d buyers, %d orders answered (%d seats) in %.1f s: %.0f orders/s, order p99 %.0f ms; %d refused, %d found no seats, "
              "%d requests failed (the killed instance); %d seats sold twice, %d answered orders lost"
              % (a.flash_buyers, len(flash["orders"]), sum(len(x) for _, x in flash["orders"]), flash["elapsed"],
                 len(flash["orders"]) / flash["elapsed"], pct(flash["order_times"], 0.99), flash["refused"], flash["unserved"], flash["failed"],
                 len(sold) - len(set(sold)), len(lost)))
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    print("cluster test %s" % ("passed" if not FAILURES else "FAILED (%d)" % len(FAILURES)))
    return 0 if not FAILURES else 1


if __name__ == "__main__":
    sys.exit(main())
