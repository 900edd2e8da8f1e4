#!/usr/bin/env bash
# Runs a command with a private PostgreSQL cluster: initdb in a temporary
# folder, the server on 127.0.0.1 (a free port) and a Unix socket in that
# folder, stopped and removed when the command ends (whatever its result).
# PostgreSQL refuses to run as root, so as root the cluster runs as the
# `postgres` user Debian's package creates (or `nobody`).
# The command sees SEATMAP_TEST_POSTGRES=postgresql://seatmap@127.0.0.1:PORT/postgres
# (a superuser, trust authentication: tests create databases of their own).
#
#   scripts/with-postgres.sh swift test --skip-build
set -euo pipefail

pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ]; then
  echo "error: PostgreSQL's server is not installed (Debian package postgresql); run scripts/install-deps.sh" >&2
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/seatmap-pg-XXXXXX")
as=()
if [ "$(id -u)" -eq 0 ]; then
  user=postgres
  id -u "$user" >/dev/null 2>&1 || user=nobody
  chown "$user" "$dir"
  as=(runuser -u "$user" --)
fi
chmod 755 "$dir"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
  "${as[@]}" "$pgbin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as[@]}" "$pgbin/initdb" -D "$dir/data" -U seatmap -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 || {
  cat "$dir/initdb.log" >&2; exit 1; }
# $dir/ctl.sh stop|start: for tests of an outage (the server stopped and started again).
cat >"$dir/ctl.sh" <<CTL
#!/usr/bin/env bash
set -e
case "\$1" in
  stop) ${as[*]} "$pgbin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null ;;
  start) ${as[*]} "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
           -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300 -c shared_buffers=64MB" start >/dev/null ;;
esac
CTL
chmod 755 "$dir/ctl.sh"
bash "$dir/ctl.sh" start || { cat "$dir/server.log" >&2; exit 1; }
export SEATMAP_TEST_POSTGRES_CTL="$dir/ctl.sh"

export SEATMAP_TEST_POSTGRES="postgresql://seatmap@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)" >&2
set +e
"$@"
rc=$?
set -e
exit $rc
