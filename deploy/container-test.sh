#!/usr/bin/env bash
# The suite in real containers, without a Docker engine: builds the release (deploy/build-release.sh:
# the executables, one shared library of Binario's code, the Swift runtime shared), assembles the
# runtime image from it with deploy/image/assemble.sh as deploy/Dockerfile does (with this
# machine's Debian 12 libraries), checks its size, runs docker-compose.yml under podman
# (podman-compose), and drives it:
#
#   1. certs, then the seven services at once (compose's order); each must become healthy by
#      compose's own health check (`podman healthcheck run`: /readyz);
#   2. register → confirm → login → me through the published gateway port with the binario CLI,
#      the demo network's departures board (scheduling loaded it from the image), the fare
#      table (ticketing loaded the image's) and the deals at Milano Centrale (geo-offers loaded
#      the image's demo data and copied scheduling's stations);
#   3. identity gets SIGTERM: it must drain (log its graceful shutdown, exit 0 well within its
#      grace period) while the gateway answers UNAVAILABLE for it;
#   4. identity starts again on the same volume: the account and its password are still there.
#
# It prints the image size and what each layer weighs, each process's idle memory and the cold
# start time, and fails if the image or an idle process is over its budget (below), or, naming the
# reason, if podman cannot run containers here: it never passes by skipping.
#
#   deploy/container-test.sh            (about 1.5 minutes after the release build)
#   deploy/container-test.sh --keep     leave the containers running afterwards
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

keep=false
# What the image and each idle process may weigh (docs/deployment.md "The image").
image_budget_mib=150
# Proportional memory (PSS): a process's own pages, and its share of the pages the seven share
# (the suite's library and the Swift runtime's code, mapped from the same files). Its RSS counts
# those whole in every process, so the seven's RSS adds up to far more than they use.
idle_pss_budget_mib=30
[ "${1:-}" = "--keep" ] && keep=true

say() { printf '\n== %s\n' "$*"; }
fail() {
  echo "container-test: FAILED: $*" >&2
  # What each service said last: a failure after start is read from its log.
  for service in identity scheduling ticketing geo-offers dispatch telemetry gateway; do
    logs=$(podman logs --tail 15 "$(container "$service" 2>/dev/null)" 2>&1) || continue
    printf '== %s, its last lines\n%s\n' "$service" "$logs" >&2
  done
  exit 1
}

scripts/install-system-packages.sh podman runc curl
scripts/install-python-tools.sh
# This machine kind needs runc and explicit rlimits (see the file); the system's podman
# configuration stays untouched.
export CONTAINERS_CONF=$root/deploy/podman/containers.conf
podman info >/dev/null 2>&1 || fail "podman cannot run here: $(podman info 2>&1 | tail -n 3)"

say "Release build (one shared library and the Swift runtime, shared; deploy/build-release.sh)"
# BINARIO_CONTAINER_SUITE: a folder deploy/build-release.sh made earlier, to check the containers'
# steps without waiting for the release build; the test command never sets it.
if [ -n "${BINARIO_CONTAINER_SUITE:-}" ]; then
  suite=$BINARIO_CONTAINER_SUITE
else
  suite=$(deploy/build-release.sh 2> >(tail -n 1 >&2))
fi
bin=$suite/bin

say "Assembling the runtime image binario:local (deploy/image/assemble.sh, as the Dockerfile does)"
work=$(mktemp -d)
project=binario-container-test
compose() {
  "$root/.tools/venv/bin/podman-compose" --project-name "$project" --file "$root/docker-compose.yml" "$@"
}
cleanup() {
  if [ "$keep" = false ]; then
    compose down --volumes --timeout 5 >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
}
trap cleanup EXIT

layers=$work/layers
deploy/image/assemble.sh "$suite" "$layers"
scripts/install-swagger-ui.sh  # the gateway's /docs page, as the Dockerfile's docs stage adds it
mkdir -p "$layers/data/usr/share/binario"
cp -r .tools/swagger-ui "$layers/data/usr/share/binario/swagger-ui"
rootfs=$work/rootfs
mkdir -p "$rootfs"
for layer in system swift data suite; do
  cp -a "$layers/$layer/." "$rootfs/"
done
install -d -o 10001 -g 10001 -m 0750 "$rootfs/var/lib/binario" "$rootfs/var/lib/binario-backups" "$rootfs/etc/binario/certs"
podman rmi --force binario:local >/dev/null 2>&1 || true
tar -C "$rootfs" --numeric-owner -c . | podman import \
  --change 'USER 10001:10001' \
  --change 'WORKDIR /var/lib/binario' \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'CMD ["gateway", "--help"]' \
  - binario:local >/dev/null
image_bytes=$(podman image inspect --format '{{.Size}}' binario:local)
mib() { python3 -c "print(f'{$1 / 1048576:.1f}')"; }
echo "binario:local: $(mib "$image_bytes") MiB (budget ${image_budget_mib} MiB); its layers, as deploy/Dockerfile copies them:"
for layer in system swift data suite; do
  printf '  %-7s %6s MiB\n' "$layer" "$(mib "$(du -sb "$layers/$layer" | cut -f1)")"
done
printf '  of which ICU (lib_FoundationICU.so) %s MiB, libBinarioSuite.so %s MiB, the %s executables %s MiB\n' \
  "$(mib "$(stat -c %s "$layers/swift/usr/local/lib/lib_FoundationICU.so")")" \
  "$(mib "$(stat -c %s "$layers/suite/usr/local/lib/libBinarioSuite.so")")" \
  "$(ls "$layers/suite/usr/local/bin" | wc -l)" "$(mib "$(du -sb "$layers/suite/usr/local/bin" | cut -f1)")"
[ "$image_bytes" -le $((image_budget_mib * 1048576)) ] || fail "the image is $(mib "$image_bytes") MiB, over its ${image_budget_mib} MiB budget"

# Free ports for the gateway's front doors, so a suite running from scripts/run-local.sh is not
# in the way.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
gateway_port=$(free_port)
http_port=$(free_port)
export BINARIO_GATEWAY_PORT=$gateway_port BINARIO_GATEWAY_GRPC_PORT=$(free_port) BINARIO_GATEWAY_HTTP_PORT=$http_port
export BINARIO_ADMIN_EMAIL=admin@binario.local
# Random, with the digit and letter identity's password rule asks for whatever the draw gave.
BINARIO_ADMIN_PASSWORD="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')-7k"
export BINARIO_ADMIN_PASSWORD
export BINARIO_IMAGE=binario:local

container() { echo "${project}_$1_1"; }

# wait_healthy <service> <seconds>: runs the service's compose health check until it passes.
wait_healthy() {
  local name deadline
  name=$(container "$1")
  deadline=$((SECONDS + $2))
  until podman healthcheck run "$name" >/dev/null 2>&1; do
    if [ "$(podman inspect --format '{{.State.Running}}' "$name" 2>/dev/null)" != true ]; then
      podman logs "$name" 2>&1 | tail -n 20 >&2
      fail "$1 stopped before it was healthy"
    fi
    [ $SECONDS -lt "$deadline" ] || fail "$1 was not healthy within $2 s; its log: $(podman logs "$name" 2>&1 | tail -n 20)"
    sleep 0.5
  done
}

say "Starting docker-compose.yml under podman (project $project, gateway on port $gateway_port)"
compose down --volumes --timeout 5 >/dev/null 2>&1 || true
services=(identity scheduling ticketing geo-offers dispatch telemetry gateway)
started=$(date +%s.%N)
# As compose's depends_on says: certs first (it must exit 0), then the seven at once; podman-compose
# does not wait on conditions, so this script does. It also creates and starts containers one
# after another (docker compose does both in parallel), so the seven are created first and then
# started together, as compose would. Each is healthy once its /readyz answers 200 (compose's own
# health check, `podman healthcheck run`, all seven asked at once).
compose up --detach --no-build certs >/dev/null
certs_status=$(podman wait "$(container certs)")
[ "$certs_status" = 0 ] || fail "certs exited with $certs_status: $(podman logs "$(container certs)" 2>&1)"
compose up --no-start --no-build --no-deps "${services[@]}" >/dev/null
starting=$(date +%s.%N)
for service in "${services[@]}"; do podman start "$(container "$service")" >/dev/null & done
wait
declare -A healthy_after
checks=$work/health
mkdir -p "$checks"
waiting=("${services[@]}")
deadline=$((SECONDS + 60))
while [ ${#waiting[@]} -gt 0 ]; do
  for service in "${waiting[@]}"; do
    (podman healthcheck run "$(container "$service")" >/dev/null 2>&1 && date +%s.%N >"$checks/$service") &
  done
  wait
  still=()
  for service in "${waiting[@]}"; do
    if [ -s "$checks/$service" ]; then
      healthy_after[$service]=$(python3 -c "print(f'{$(cat "$checks/$service") - $starting:.1f}')")
    elif [ "$(podman inspect --format '{{.State.Running}}' "$(container "$service")" 2>/dev/null)" != true ]; then
      podman logs "$(container "$service")" 2>&1 | tail -n 20 >&2
      fail "$service stopped before it was healthy"
    else
      still+=("$service")
    fi
  done
  waiting=(${still[@]+"${still[@]}"})
  [ ${#waiting[@]} -eq 0 ] && break
  [ $SECONDS -lt "$deadline" ] || fail "not healthy within 60 s: ${waiting[*]}"
  sleep 0.1
done
healthy=$(date +%s.%N)
cold_start=$(python3 -c "print(f'{$healthy - $started:.1f}')")
seven_start=$(python3 -c "print(f'{$healthy - $starting:.1f}')")
echo "the seven, started at once, all healthy in $seven_start s (target 4 s): $(for s in "${services[@]}"; do printf '%s %s s, ' "$s" "${healthy_after[$s]}"; done)"
echo "cold start, from no containers to all healthy: $cold_start s (with podman-compose creating the containers one by one)"

say "Idle memory per process: resident (RSS), and its proportional share (PSS: a page the processes share counted once among them)"
over=""
for service in identity scheduling ticketing geo-offers dispatch telemetry gateway; do
  pid=$(podman inspect --format '{{.State.Pid}}' "$(container "$service")")
  rss_kib=$(awk '/^Rss:/ { print $2 }' "/proc/$pid/smaps_rollup")
  pss_kib=$(awk '/^Pss:/ { print $2 }' "/proc/$pid/smaps_rollup")
  awk -v s="$service" -v r="$rss_kib" -v p="$pss_kib" 'BEGIN { printf "  %-10s RSS %5.1f MiB  PSS %5.1f MiB\n", s, r / 1024, p / 1024 }'
  [ "$pss_kib" -le $((idle_pss_budget_mib * 1024)) ] || over="$over $service"
  pss_total_kib=$((${pss_total_kib:-0} + pss_kib))
done
awk -v p="$pss_total_kib" 'BEGIN { printf "  all seven: PSS %.1f MiB\n", p / 1024 }'
[ -z "$over" ] || fail "idle over ${idle_pss_budget_mib} MiB PSS:$over"

say "each service backed its database up at its first start, on its backup volume"
for service in identity scheduling ticketing geo-offers dispatch telemetry; do
  listed=$(podman exec "$(container "$service")" binario-backup list --service "$service" 2>&1) ||
    fail "binario-backup list in $service failed: $listed"
  grep -q "^$service .*/var/lib/binario-backups/$service-" <<<"$listed" || fail "$service has no backup on its backup volume: $listed"
done
echo "six databases, six backups ($(podman exec "$(container identity)" binario-backup list --service identity | head -n 1))"

say "register → confirm → login → me through the published gateway port"
podman cp "$(container certs):/etc/binario/certs/ca.pem" "$work/ca.pem"
export BINARIO_GATEWAY=localhost:$gateway_port BINARIO_CA=$work/ca.pem
cli() { BINARIO_SESSION=$work/session.json "$bin/binario" "$@"; }
printf '%s\n' "$BINARIO_ADMIN_PASSWORD" |
  BINARIO_SESSION=$work/admin-session.json "$bin/binario" login --email "$BINARIO_ADMIN_EMAIL" --password-stdin >/dev/null
email=grace.$RANDOM@example.com
password=container-test-password-1
printf '%s\n' "$password" | cli register --password-stdin --email "$email" --first-name Grace --last-name Hopper \
  --phone +393331234567 --birth-date 1906-12-09 --gender female
cli confirm --email "$email" --from-outbox --admin-session "$work/admin-session.json"
BINARIO_PASSWORD=$password cli login --email "$email"
me_before=$(cli me)
echo "$me_before"
grep -q "$email" <<<"$me_before" || fail "'me' did not show $email"

say "the HTTP/JSON front door, its docs page and the web app"
health=$(curl --silent --show-error --cacert "$work/ca.pem" "https://localhost:$http_port/v1/health")
echo "GET /v1/health: $health"
[ "$health" = '{"status":"SERVING"}' ] || fail "the HTTP/JSON front door answered $health"
curl --silent --fail --cacert "$work/ca.pem" "https://localhost:$http_port/docs/swagger-ui-bundle.js" >/dev/null ||
  fail "the image's gateway serves no Swagger UI at /docs"
for path in / /app/js/app.js /lib/leaflet/leaflet.min.js /lib/chart.js/chart.min.js /lib/qrcode-generator/qrcode.js; do
  curl --silent --fail --cacert "$work/ca.pem" "https://localhost:$http_port$path" >/dev/null ||
    fail "the image's gateway does not serve the web app's $path"
done
board=$(cli trips board MI_CENTRALE --limit 3)
echo "$board"
grep -q "^Departures from Milano Centrale" <<<"$board" || fail "scheduling's demo network is not there: $board"
fares=$(curl --silent --show-error --cacert "$work/ca.pem" "https://localhost:$http_port/v1/fares")
grep -q '"zones":"Mi1-Mi3"' <<<"$fares" || fail "ticketing's fare table is not there: $fares"
echo "GET /v1/fares: the image's fare table (zone Mi1-Mi3 and $(grep -o '"upToKm"' <<<"$fares" | wc -l) distance bands)"
here=$(cli here --latitude 45.4858 --longitude 9.2044 --accuracy 20)
echo "$here"
grep -q "Caffè Centrale" <<<"$here" || fail "geo-offers offered no demo deal at Milano Centrale: $here"
grep -q "Milano Centrale \[MI_CENTRALE\]" <<<"$here" || fail "geo-offers has no copy of scheduling's stations: $here"
zones=$(cli admin zones)
echo "$zones"
grep -q "^C Centro" <<<"$zones" || fail "dispatch has not the image's taxi zones: $zones"
unready=$(cli taxi request --address "Piazza del Duomo 1" 2>&1 || true)
echo "taxi request (no verified phone, no card yet): $unready"
grep -q "a verified phone" <<<"$unready" || fail "dispatch did not refuse a passenger without a verified phone: $unready"

devices=$(cli devices add "Container board" --save-token "$work/board.token")
echo "$devices"
grep -q "device token" <<<"$devices" || fail "telemetry registered no board: $devices"
printf 'time,latitude,longitude,pm2.5,humidity\n2024-01-15T08:00:00Z,45.47,9.19,21.5,70\n2024-01-15T08:00:30Z,45.47,9.19,22.5,170\n' >"$work/walk.csv"
uploaded=$(cli readings upload "$work/walk.csv" --token-file "$work/board.token")
echo "$uploaded"
grep -q "^1 of 2 readings accepted" <<<"$uploaded" || fail "telemetry did not store one reading and refuse the other: $uploaded"
stats=$(cli readings stats --measure pm2.5 --from 2024-01-15 --to 2024-01-16)
echo "$stats"
grep -q "^count 1 " <<<"$stats" || fail "telemetry's statistics did not count the stored reading: $stats"

say "the load generator (compose's loadgenerator, off by default): 5 s of the five apps' mix through the gateway"
load_started=$(date +%s.%N)
# -T: no terminal, so no carriage returns in its lines.
load=$(compose --profile loadgenerator run -T --rm --no-deps loadgenerator binario-loadgen --host=gateway \
  --ca=/etc/binario/certs/ca.pem --mix=/usr/share/binario/loadgenerator-mix.json --travellers=6 --drivers=2 \
  --seconds=5 --rate=20 2>&1) || fail "the load generator failed: $(tail -n 40 <<<"$load")"
load=$(tr -d '\r' <<<"$load")
grep -E '^door binario|^notification streams' <<<"$load"
grep -q '^door binario, 20 operations/s scheduled for 5 s: .*, 0 failed$' <<<"$load" ||
  fail "the load generator's run was not clean: $(tail -n 40 <<<"$load")"
echo "the load generator ran in $(python3 -c "print(f'{$(date +%s.%N) - $load_started:.1f}')") s, nothing failed"

say "SIGTERM to identity: it drains and stops"
stopping=$(date +%s.%N)
podman stop --time 30 "$(container identity)" >/dev/null
stop_seconds=$(python3 -c "print(f'{$(date +%s.%N) - $stopping:.1f}')")
exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$(container identity)")
identity_log=$(podman logs "$(container identity)" 2>&1)
[ "$exit_code" = 0 ] || fail "identity exited with $exit_code after SIGTERM; log: $(tail -n 20 <<<"$identity_log")"
grep -q '"graceful shutdown: no new calls; open calls may finish"' <<<"$identity_log" ||
  fail "identity did not log its graceful shutdown"
grep -q '"message":"stopped"' <<<"$identity_log" || fail "identity did not log that it stopped"
python3 -c "import sys; sys.exit(0 if $stop_seconds < 20 else 1)" ||
  fail "identity took $stop_seconds s to stop: its grace period ran out instead of it draining"
echo "identity stopped gracefully in $stop_seconds s (exit 0)"
if unavailable=$(cli me 2>&1); then
  fail "'me' succeeded while identity was stopped"
fi
grep -q 'unavailable' <<<"$unavailable" || fail "with identity stopped, 'me' failed otherwise than UNAVAILABLE: $unavailable"
echo "with identity stopped the gateway answers: $unavailable"

say "identity starts again on the same volume"
podman start "$(container identity)" >/dev/null
wait_healthy identity 60
# The gateway reconnects on its own (its pool backs off up to 5 s while identity is away); its
# health watch says when it has.
cli health --service identity --wait 30
BINARIO_PASSWORD=$password cli login --email "$email"
me_after=$(cli me)
[ "$me_after" = "$me_before" ] || fail "the account changed across the restart: before: $me_before; after: $me_after"
echo "the account is still there: login with its password works and 'me' is unchanged"

say "container test passed (image $((image_bytes / 1024 / 1024)) MiB, cold start $cold_start s)"
if [ "$keep" = true ]; then
  echo "Containers left running (project $project): BINARIO_GATEWAY=localhost:$gateway_port BINARIO_CA=$work/ca.pem"
  echo "Stop them with: CONTAINERS_CONF=$CONTAINERS_CONF .tools/venv/bin/podman-compose -p $project down --volumes"
fi
