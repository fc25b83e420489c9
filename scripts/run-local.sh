#!/usr/bin/env bash
# Builds and starts the whole suite on this machine, each service its own process:
#   installs missing Debian packages, builds, creates development certificates (.dev/certs),
#   data folders (.dev/data/<service>), the first admin and a demo passenger, then prints where
#   the gateway listens. Ctrl-C stops everything cleanly (SIGTERM, graceful shutdown).
#
#   scripts/run-local.sh            build (debug) and run
#   scripts/run-local.sh --release  build with optimizations first (slower build, faster hashing)
#
# Ports: gateway 7100 (gRPC 7110, HTTPS/JSON 7443), identity 7101, scheduling 7102, ticketing 7103,
# geo-offers 7104, dispatch 7105, telemetry 7106 (metrics on 9100 to 9106). Logs: .dev/logs/<process>.log.
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=debug
[ "${1:-}" = "--release" ] && configuration=release

scripts/install-system-packages.sh curl
echo "Building ($configuration)..."
swift build -c "$configuration"
bin=$(swift build -c "$configuration" --show-bin-path)

dev=.dev
certs=$dev/certs
mkdir -p "$dev/data" "$dev/logs"
# The certificates, and the VAPID key scheduling signs Web Push with (made once, kept).
"$bin/binario-dev-certs" --out "$certs" --web-push-key "$dev/web-push-private-key" >/dev/null

admin_email=${BINARIO_ADMIN_EMAIL:-admin@binario.local}
admin_password_file=$dev/admin-password
if [ ! -s "$admin_password_file" ]; then
  # A fresh random password for this machine's first admin, readable by its owner only.
  (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$admin_password_file")
fi
admin_password=$(cat "$admin_password_file")

pids=()
stop_all() {
  trap - INT TERM EXIT
  if [ ${#pids[@]} -gt 0 ]; then
    echo
    echo "Stopping..."
    kill -TERM "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
  echo "Stopped."
  exit 0
}
trap stop_all INT TERM EXIT

names=() metrics_ports=()
# start <name> <port> <metrics port> [extra flags...]: starts a process in the background. All
# seven start at once: none waits for another to start, each calls the others when it needs them
# (its clients connect, and its event subscriptions read, once the other answers).
start() {
  local name=$1 port=$2 metrics=$3
  shift 3
  mkdir -p "$dev/data/$name"
  "$bin/$name" \
    --host 127.0.0.1 --port "$port" \
    --tls-certificate "$certs/$name.pem" --tls-private-key "$certs/$name.key" --tls-trusted-ca "$certs/ca.pem" \
    --data-directory "$dev/data/$name" --metrics-host 127.0.0.1 --metrics-port "$metrics" \
    --log-format human "$@" >"$dev/logs/$name.log" 2>&1 &
  pids+=("$!")
  names+=("$name")
  metrics_ports+=("$metrics")
}

# wait_ready: until every process's /readyz answers 200; a process that exits first ends the
# script with its log. Prints how long the suite took from its first start.
wait_ready() {
  local i waiting=("${!names[@]}") still
  while [ ${#waiting[@]} -gt 0 ]; do
    still=()
    for i in "${waiting[@]}"; do
      if curl --silent --fail --max-time 1 "http://127.0.0.1:${metrics_ports[$i]}/readyz" >/dev/null 2>&1; then
        echo "  ${names[$i]} ready (log: $dev/logs/${names[$i]}.log)"
      elif ! kill -0 "${pids[$i]}" 2>/dev/null; then
        echo "${names[$i]} failed to start; its log ($dev/logs/${names[$i]}.log):" >&2
        tail -n 30 "$dev/logs/${names[$i]}.log" >&2
        exit 1
      else
        still+=("$i")
      fi
    done
    waiting=(${still[@]+"${still[@]}"})
    [ ${#waiting[@]} -eq 0 ] || sleep 0.05
  done
  echo "All ${#names[@]} processes ready in $(awk -v s="$starting" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s."
}

scripts/install-swagger-ui.sh
echo "Starting the suite..."
starting=$(date +%s.%N)
BINARIO_ADMIN_EMAIL=$admin_email BINARIO_ADMIN_PASSWORD=$admin_password \
  start identity 7101 9101
# The demo network (Services/Scheduling/DemoNetwork) is loaded at scheduling's first start.
BINARIO_WEB_PUSH_PRIVATE_KEY=$(cat "$dev/web-push-private-key") \
  start scheduling 7102 9102 --identity-address 127.0.0.1:7101 --timetable-folder Services/Scheduling/DemoNetwork
# The demo fare table (Services/Ticketing/DemoFares) is loaded when it differs from the one in force.
# Ticketing asks geo-offers for route offers (and geo-offers asks ticketing for tickets at a
# station): it quotes the full fare while geo-offers does not answer.
start ticketing 7103 9103 --identity-address 127.0.0.1:7101 --scheduling-address 127.0.0.1:7102 \
  --fare-table Services/Ticketing/DemoFares/fares.json --geo-offers-address 127.0.0.1:7104
# The demo shops, deals, places and route offers (Services/GeoOffers/DemoData) are loaded at
# geo-offers' first start; it copies scheduling's stations and keeps them in step.
start geo-offers 7104 9104 --identity-address 127.0.0.1:7101 --scheduling-address 127.0.0.1:7102 --ticketing-address 127.0.0.1:7103 \
  --demo-data Services/GeoOffers/DemoData/offers.json
# Dispatch: Milan's nine taxi zones and the demo area's street addresses (Services/Dispatch/DemoData);
# the first admin is alerted when a request finds no taxi or a driver stops answering.
start dispatch 7105 9105 --identity-address 127.0.0.1:7101 --scheduling-address 127.0.0.1:7102 \
  --zones Services/Dispatch/DemoData/zones.json --addresses Services/Dispatch/DemoData/addresses.json \
  --alert-emails "$admin_email"
# Telemetry: sensor boards' readings beside the regional reference stations (its demo data is
# imported through the gateway below, as a user would).
start telemetry 7106 9106 --identity-address 127.0.0.1:7101 --scheduling-address 127.0.0.1:7102
start gateway 7100 9100 --tls-client-authentication none --upstream identity=127.0.0.1:7101 \
  --upstream scheduling=127.0.0.1:7102 --upstream ticketing=127.0.0.1:7103 --upstream geo-offers=127.0.0.1:7104 \
  --upstream dispatch=127.0.0.1:7105 --upstream telemetry=127.0.0.1:7106 \
  --grpc-port 7110 --http-port 7443 --docs-folder .tools/swagger-ui --web-folder clients/web
wait_ready

export BINARIO_GATEWAY=localhost:7100 BINARIO_CA=$PWD/$certs/ca.pem
cli() { "$bin/binario" "$@"; }

# The admin's session, which `binario confirm --from-outbox` and admin commands use.
printf '%s\n' "$admin_password" | cli login --email "$admin_email" --password-stdin --session "$dev/admin-session.json" >/dev/null

# A demo passenger, registered and confirmed through the gateway like any user.
demo_email=ada@example.com
demo_password=correct-horse-42
if printf '%s\n' "$demo_password" | cli register --password-stdin --email "$demo_email" --first-name Ada \
  --last-name Lovelace --phone +393331234567 --birth-date 1990-12-10 --gender female >/dev/null 2>&1; then
  cli confirm --email "$demo_email" --from-outbox >/dev/null
fi
# The demo passenger's session, with a test card on file to buy tickets with.
printf '%s\n' "$demo_password" | cli login --email "$demo_email" --password-stdin --session "$dev/demo-session.json" >/dev/null
if ! cli cards --session "$dev/demo-session.json" | grep -q 4242; then
  BINARIO_CARD_NUMBER=4242424242424242 BINARIO_CARD_SECURITY_CODE=123 \
    cli cards add --expiry 12/2030 --session "$dev/demo-session.json" >/dev/null
fi
# Its phone verified (the SMS code from the outbox; a new one if that expired): a taxi needs it.
if cli me --session "$dev/demo-session.json" | grep -q 'not verified'; then
  if ! cli phone verify --from-outbox --session "$dev/demo-session.json" >/dev/null 2>&1; then
    cli phone resend --session "$dev/demo-session.json" >/dev/null
    cli phone verify --from-outbox --session "$dev/demo-session.json" >/dev/null
  fi
fi

# Three demo taxis in the centre and the north, each with a driver signed in, at a position and
# available; their sessions are .dev/driver-<n>-session.json.
driver_password=drive-safely-42
demo_taxi() {
  local n=$1 plate=$2 latitude=$3 longitude=$4
  local session=$dev/driver-$n-session.json
  local admin=(--session "$dev/admin-session.json")
  cli admin taxis add --code "MI-00$n" --plate "$plate" "${admin[@]}" >/dev/null 2>&1 || true
  printf '%s\n' "$driver_password" | cli admin drivers add --password-stdin --email "driver$n@binario.local" \
    --first-name Driver --last-name "$n" --phone "+39333000000$n" --taxi "MI-00$n" "${admin[@]}" >/dev/null 2>&1 || true
  printf '%s\n' "$driver_password" | cli login --email "driver$n@binario.local" --password-stdin --session "$session" >/dev/null
  cli driver position --latitude "$latitude" --longitude "$longitude" --session "$session" >/dev/null
  # A taxi left on a ride by an earlier run stays on it (its driver completes it); not an error.
  cli driver available --session "$session" >/dev/null 2>&1 || echo "  taxi MI-00$n is on a ride; left as it is"
}
demo_taxi 1 AB001CD 45.46419 9.18960
demo_taxi 2 AB002CD 45.47190 9.18790
demo_taxi 3 AB003CD 45.50290 9.17540

# A small reference fixture (Services/Telemetry/DemoData: ARPA Lombardia's stations in Milan and
# their measurements of 15 January 2024, in the portal's formats), and a demo board of the demo
# passenger's with a walk's readings of that morning; its token is in .dev/demo-board.token.
telemetry_demo=Services/Telemetry/DemoData
admin=(--session "$dev/admin-session.json")
cli reference import "$telemetry_demo/air-quality-stations.csv" --catalogue --network air_quality "${admin[@]}" >/dev/null
cli reference import "$telemetry_demo/weather-stations.json" --catalogue --network weather "${admin[@]}" >/dev/null
cli reference import "$telemetry_demo/measurements-2024-01-15.csv" --measurements "${admin[@]}" >/dev/null
demo=(--session "$dev/demo-session.json")
if [ ! -s "$dev/demo-board.token" ] || ! cli devices list "${demo[@]}" | grep -q "Demo board"; then
  rm -f "$dev/demo-board.token"
  cli devices add "Demo board" --save-token "$dev/demo-board.token" "${demo[@]}" >/dev/null
fi
cli readings upload "$telemetry_demo/board-walk-2024-01-15.csv" --token-file "$dev/demo-board.token" >/dev/null
# The demo board's walk is public (the web app's public air map, open to anyone, shows it).
if ! cli campaigns list "${demo[@]}" | grep -q "Demo walks"; then
  cli campaigns create "Demo walks" --public "${demo[@]}" >/dev/null
fi
walks=$(cli campaigns list "${demo[@]}" | awk '/Demo walks/ { print $1; exit }')
board=$(cli devices list "${demo[@]}" | awk '/Demo board/ { print $1; exit }')
cli devices share "$board" --campaign "$walks" "${demo[@]}" >/dev/null

cat <<INFO

Binario is running. The gateway's front doors (TLS; CA: $certs/ca.pem):

  Binario protocol:      localhost:7100   (the binario CLI, services' own clients)
  gRPC over HTTP/2:      localhost:7110   (grpcio, grpc-swift, grpcurl; server reflection on)
  HTTPS with JSON:       https://localhost:7443/v1/...   (OpenAPI: /openapi.json)
  The web app:           https://localhost:7443/   (import $certs/ca.pem into the browser, or accept it)
  API docs to try:       https://localhost:7443/docs

  Command-line client:   $bin/binario --help
  First admin:           $admin_email (password in $admin_password_file; session in $dev/admin-session.json)
  Demo passenger:        $demo_email / $demo_password (session in $dev/demo-session.json, a test card on file)
  Try:                   BINARIO_PASSWORD=$demo_password $bin/binario login --email $demo_email
                         $bin/binario me
  Departures:            curl --cacert $certs/ca.pem https://localhost:7443/v1/stations/MI_CENTRALE/departures
  Fares:                 curl --cacert $certs/ca.pem https://localhost:7443/v1/fares
  Nearest stations:      curl --cacert $certs/ca.pem 'https://localhost:7443/v1/nearby/stations?latitude=45.4642&longitude=9.19'
  Deals at the station:  $bin/binario here --latitude 45.4858 --longitude 9.2044 --session $dev/demo-session.json
  A taxi:                $bin/binario taxi request --address "Piazza del Duomo 1" --watch --session $dev/demo-session.json
                         (taxis MI-001..3 wait in the centre; drivers driver1..3@binario.local / $driver_password:
                         $bin/binario driver jobs --session $dev/driver-1-session.json)
  Control room:          $bin/binario admin monitor --watch --session $dev/admin-session.json
  Air quality:           $bin/binario readings stats --measure pm2.5 --from 2024-01-15 --to 2024-01-16 --session $dev/demo-session.json
                         $bin/binario reference compare --sensor 5505 --measure pm2.5 --from 2024-01-15T08:00:00Z \\
                           --to 2024-01-15T12:00:00Z --points 4 --session $dev/demo-session.json
                         $bin/binario simulate-board --token-file $dev/demo-board.token --latitude 45.4642 --longitude 9.19
  Metrics:               http://127.0.0.1:9100/metrics (gateway), :9101 (identity), :9102 (scheduling), :9103 (ticketing),
                         :9104 (geo-offers), :9105 (dispatch), :9106 (telemetry)

Press Ctrl-C to stop.
INFO

wait -n "${pids[@]}" || true
echo "A process exited; see .dev/logs." >&2
exit 1
