"""Checks docker-compose.yml, as podman-compose resolves it, against what deploy/README.md promises.

Reads the resolved file (`podman-compose config`) on standard input and exits 1 naming each
broken rule: the services and their order, only the gateway's port published, BINARIO_* settings
only, one named volume per stateful service, health checks on /readyz, depends_on conditions,
restart policies, the hardening every container shares, and no admin password in the file.
Usage: podman-compose config | python deploy/check_compose.py docker-compose.yml
(the file itself as the argument: the password must be a ${...} there, not a value).
"""

import sys

import yaml

SERVICES = {"certs", "identity", "scheduling", "ticketing", "geo-offers", "dispatch", "telemetry", "gateway"}
# Services that run only when their profile is asked for (`--profile loadgenerator`).
OPTIONAL = {"loadgenerator"}
# service -> (metrics port its health check asks, the services it waits on and how)
# service -> the metrics port its health check asks. Each waits only for certs: the suite's
# processes start at once and each is ready when what it needs answers (deploy/README.md).
LONG_RUNNING = {
    "identity": "9101",
    "scheduling": "9102",
    "ticketing": "9103",
    "geo-offers": "9104",
    "dispatch": "9105",
    "telemetry": "9106",
    "gateway": "9100",
}
STATEFUL = {
    "identity": "identity-data",
    "scheduling": "scheduling-data",
    "ticketing": "ticketing-data",
    "geo-offers": "geo-offers-data",
    "dispatch": "dispatch-data",
    "telemetry": "telemetry-data",
}
# service -> the upstream address the gateway routes its package to
UPSTREAMS = {
    "identity": "identity:7101",
    "scheduling": "scheduling:7102",
    "ticketing": "ticketing:7103",
    "geo-offers": "geo-offers:7104",
    "dispatch": "dispatch:7105",
    "telemetry": "telemetry:7106",
}

compose = yaml.safe_load(sys.stdin)
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


services = compose.get("services", {})
check(set(services) - OPTIONAL == SERVICES, f"services are {sorted(services)}, expected {sorted(SERVICES)} (and optionally {sorted(OPTIONAL)})")

for name, service in services.items():
    check(service.get("read_only") is True, f"{name}: read_only must be true")
    check(service.get("cap_drop") == ["ALL"], f"{name}: cap_drop must be [ALL]")
    check("no-new-privileges:true" in service.get("security_opt", []), f"{name}: needs security_opt no-new-privileges:true")
    check(service.get("image", "").startswith("binario:"), f"{name}: must run the suite's image, not {service.get('image')}")
    check(name == "gateway" or not service.get("ports"), f"{name}: only the gateway publishes a port")
    for key in service.get("environment", {}) or {}:
        check(key.startswith("BINARIO_"), f"{name}: setting {key} is not a BINARIO_* variable")

for name, metrics_port in LONG_RUNNING.items():
    service = services.get(name, {})
    environment = service.get("environment", {}) or {}
    test = " ".join(service.get("healthcheck", {}).get("test", []))
    check(f"http://127.0.0.1:{metrics_port}/readyz" in test, f"{name}: health check must ask /readyz on {metrics_port}, is {test!r}")
    check(environment.get("BINARIO_METRICS_PORT") == metrics_port, f"{name}: BINARIO_METRICS_PORT must be {metrics_port}")
    depends_on = service.get("depends_on", {})
    check(
        {dependency: how.get("condition") for dependency, how in depends_on.items()} == {"certs": "service_completed_successfully"},
        f"{name}: must wait for certs only (service_completed_successfully), not {depends_on}",
    )
    check(service.get("healthcheck", {}).get("interval") == "2s", f"{name}: health check must run every 2s, so healthy follows ready soon after a start")
    check(service.get("restart") == "unless-stopped", f"{name}: restart must be unless-stopped")
    grace = float(environment.get("BINARIO_SHUTDOWN_GRACE_PERIOD", "20"))
    stop = service.get("stop_grace_period", "10s")
    check(stop.endswith("s") and float(stop[:-1]) >= grace + 10, f"{name}: stop_grace_period {stop} must be at least the shutdown grace + 10 s")

ports = services.get("gateway", {}).get("ports", [])
published = sorted(str(port).rsplit(":", 1)[-1] for port in ports)
check(published == ["7100", "7110", "7443"], f"gateway: must publish exactly its front doors 7100, 7110 and 7443, publishes {ports}")

for name, volume in STATEFUL.items():
    mounts = [str(mount) for mount in services.get(name, {}).get("volumes", [])]
    check(any(mount.startswith(f"{volume}:/var/lib/binario") for mount in mounts), f"{name}: its data must be in the named volume {volume}")
    check(volume in compose.get("volumes", {}), f"volume {volume} is not declared")
    backups = f"{name}-backups"
    directory = (services.get(name, {}).get("environment", {}) or {}).get("BINARIO_BACKUP_DIRECTORY")
    check(f"{backups}:{directory}" in mounts, f"{name}: BINARIO_BACKUP_DIRECTORY must be the named volume {backups} (not its data volume)")
    check(backups in compose.get("volumes", {}), f"volume {backups} is not declared")

upstreams = set(str(services.get("gateway", {}).get("environment", {}).get("BINARIO_UPSTREAM", "")).split(","))
for name, address in UPSTREAMS.items():
    check(f"{name}={address}" in upstreams, f"gateway: BINARIO_UPSTREAM must route {name}={address}")
scheduling = services.get("scheduling", {}).get("environment", {}) or {}
check(scheduling.get("BINARIO_IDENTITY_ADDRESS") == "identity:7101", "scheduling: BINARIO_IDENTITY_ADDRESS must be identity:7101")
check(scheduling.get("BINARIO_TIMETABLE_FOLDER") == "/usr/share/binario/demo-network", "scheduling: must load the image's demo network at first start")
ticketing = services.get("ticketing", {}).get("environment", {}) or {}
check(ticketing.get("BINARIO_IDENTITY_ADDRESS") == "identity:7101", "ticketing: BINARIO_IDENTITY_ADDRESS must be identity:7101")
check(ticketing.get("BINARIO_SCHEDULING_ADDRESS") == "scheduling:7102", "ticketing: BINARIO_SCHEDULING_ADDRESS must be scheduling:7102")
check(ticketing.get("BINARIO_FARE_TABLE") == "/usr/share/binario/demo-fares.json", "ticketing: must load the image's fare table")
check(ticketing.get("BINARIO_GEO_OFFERS_ADDRESS") == "geo-offers:7104", "ticketing: BINARIO_GEO_OFFERS_ADDRESS must be geo-offers:7104")
geo_offers = services.get("geo-offers", {}).get("environment", {}) or {}
check(geo_offers.get("BINARIO_IDENTITY_ADDRESS") == "identity:7101", "geo-offers: BINARIO_IDENTITY_ADDRESS must be identity:7101")
check(geo_offers.get("BINARIO_SCHEDULING_ADDRESS") == "scheduling:7102", "geo-offers: BINARIO_SCHEDULING_ADDRESS must be scheduling:7102")
check(geo_offers.get("BINARIO_TICKETING_ADDRESS") == "ticketing:7103", "geo-offers: BINARIO_TICKETING_ADDRESS must be ticketing:7103")
check(geo_offers.get("BINARIO_DEMO_DATA") == "/usr/share/binario/demo-offers.json", "geo-offers: must load the image's demo offers at first start")
dispatch = services.get("dispatch", {}).get("environment", {}) or {}
check(dispatch.get("BINARIO_IDENTITY_ADDRESS") == "identity:7101", "dispatch: BINARIO_IDENTITY_ADDRESS must be identity:7101")
check(dispatch.get("BINARIO_SCHEDULING_ADDRESS") == "scheduling:7102", "dispatch: BINARIO_SCHEDULING_ADDRESS must be scheduling:7102")
check(dispatch.get("BINARIO_ZONES") == "/usr/share/binario/taxi-zones.json", "dispatch: must load the image's taxi zones")
check(dispatch.get("BINARIO_ADDRESSES") == "/usr/share/binario/taxi-addresses.json", "dispatch: must load the image's street addresses")
telemetry = services.get("telemetry", {}).get("environment", {}) or {}
check(telemetry.get("BINARIO_IDENTITY_ADDRESS") == "identity:7101", "telemetry: BINARIO_IDENTITY_ADDRESS must be identity:7101")
check(telemetry.get("BINARIO_SCHEDULING_ADDRESS") == "scheduling:7102", "telemetry: BINARIO_SCHEDULING_ADDRESS must be scheduling:7102")

raw = yaml.safe_load(open(sys.argv[1]))
for name in ("identity", "loadgenerator"):
    admin_password = str(raw["services"][name]["environment"].get("BINARIO_ADMIN_PASSWORD", ""))
    check(admin_password.startswith("${") and admin_password.endswith("}"), f"{name}: BINARIO_ADMIN_PASSWORD must come from the environment (${{...}}), not be written in the file")

# The load generator: off by default (its profile), a client of the gateway only.
loadgenerator = raw["services"].get("loadgenerator", {})
check(loadgenerator.get("profiles") == ["loadgenerator"], "loadgenerator: must run only with --profile loadgenerator")
check("binario-loadgen" in loadgenerator.get("command", []), "loadgenerator: must run binario-loadgen")
check("--host=gateway" in loadgenerator.get("command", []), "loadgenerator: must call the gateway")
check(not loadgenerator.get("ports"), "loadgenerator: publishes no port")
check(loadgenerator.get("depends_on", {}).get("gateway", {}).get("condition") == "service_healthy", "loadgenerator: must wait for the gateway to be healthy")

if problems:
    print("docker-compose.yml:", *problems, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"docker-compose.yml: {len(services)} services as expected")
