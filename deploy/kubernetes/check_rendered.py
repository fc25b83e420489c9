#!/usr/bin/env python3
"""Checks one rendering of deploy/kubernetes beyond its API schemas (scripts/check-kubernetes.sh).

    check_rendered.py VARIANT RENDERED.yaml     e.g. check_rendered.py overlays/production out.yaml

VARIANT is base, overlays/development, overlays/development-with-google,
overlays/development-with-tracing, overlays/development-with-loadgenerator or overlays/production. Prints the number of documents on
success; otherwise one line per failure on stderr, and exits 1.

What it checks: the kinds and names rendered (kubernetes-validate only warns on a kind it has no
schema for), the cert-manager objects (no schema offline), and the suite's own rules: pod and
container hardening, probes, resources, BINARIO_* settings, certificate Secrets, the gateway's
upstreams and the NetworkPolicies between the gateway and each service.

A new service adds its objects to EXPECTED_BASE (and its Certificate to EXPECTED_CERT_MANAGER).
"""

import re
import sys
from collections import Counter

import yaml

NAMESPACE = "binario"
NAME_LABEL = "app.kubernetes.io/name"
PART_OF_LABEL = "app.kubernetes.io/part-of"
UID = GID = 10001
TLS_MOUNT = "/etc/binario/tls"
TLS_MODE = 0o440
# The process's own backstop ends it this many seconds after BINARIO_SHUTDOWN_GRACE_PERIOD.
SHUTDOWN_BACKSTOP_SECONDS = 10

# Every object of the base, as kind/name. ConfigMaps are named without kustomize's hash suffix.
EXPECTED_BASE = [
    "Namespace/binario",
    "ConfigMap/binario-common",
    "NetworkPolicy/default-deny-all",
    "NetworkPolicy/allow-dns-egress",
    "NetworkPolicy/allow-metrics-ingress-from-prometheus",
    # gateway/
    "Deployment/gateway",
    "Service/gateway",
    "PodDisruptionBudget/gateway",
    "NetworkPolicy/allow-gateway-ingress-from-clients",
    # identity/
    "StatefulSet/identity",
    "Service/identity",
    "Service/identity-headless",
    "NetworkPolicy/allow-identity-ingress-from-callers",
    "NetworkPolicy/allow-gateway-egress-to-identity",
    # scheduling/
    "StatefulSet/scheduling",
    "Service/scheduling",
    "Service/scheduling-headless",
    "NetworkPolicy/allow-scheduling-ingress-from-callers",
    "NetworkPolicy/allow-gateway-egress-to-scheduling",
    "NetworkPolicy/allow-scheduling-egress-to-identity",
    # ticketing/
    "StatefulSet/ticketing",
    "Service/ticketing",
    "Service/ticketing-headless",
    "NetworkPolicy/allow-ticketing-ingress-from-callers",
    "NetworkPolicy/allow-gateway-egress-to-ticketing",
    "NetworkPolicy/allow-ticketing-egress-to-peers",
    # geo-offers/
    "StatefulSet/geo-offers",
    "Service/geo-offers",
    "Service/geo-offers-headless",
    "NetworkPolicy/allow-geo-offers-ingress-from-callers",
    "NetworkPolicy/allow-gateway-egress-to-geo-offers",
    "NetworkPolicy/allow-geo-offers-egress-to-peers",
    # dispatch/
    "StatefulSet/dispatch",
    "Service/dispatch",
    "Service/dispatch-headless",
    "NetworkPolicy/allow-dispatch-ingress-from-callers",
    "NetworkPolicy/allow-gateway-egress-to-dispatch",
    "NetworkPolicy/allow-dispatch-egress-to-peers",
    # telemetry/
    "StatefulSet/telemetry",
    "Service/telemetry",
    "Service/telemetry-headless",
    "NetworkPolicy/allow-telemetry-ingress-from-callers",
    "NetworkPolicy/allow-gateway-egress-to-telemetry",
    "NetworkPolicy/allow-telemetry-egress-to-https",
    "NetworkPolicy/allow-telemetry-egress-to-peers",
]
EXPECTED_CERT_MANAGER = [
    "Issuer/binario-selfsigned",
    "Certificate/binario-ca",
    "Issuer/binario-ca",
    "Certificate/binario-gateway-tls",
    "Certificate/binario-identity-tls",
    "Certificate/binario-scheduling-tls",
    "Certificate/binario-ticketing-tls",
    "Certificate/binario-geo-offers-tls",
    "Certificate/binario-dispatch-tls",
    "Certificate/binario-telemetry-tls",
]

# components/google-sign-in.
EXPECTED_GOOGLE_SIGN_IN = [
    "ConfigMap/binario-google-sign-in",
    "NetworkPolicy/allow-identity-egress-to-https",
]

# components/web-push (its Secret is made by hand, so only the policy is rendered).
EXPECTED_WEB_PUSH = [
    "NetworkPolicy/allow-scheduling-egress-to-https",
]

EXPECTED_TRACING = [
    "ConfigMap/binario-tracing",
    "NetworkPolicy/allow-egress-to-otel-collector",
]

# components/loadgenerator: a client of the gateway, checked as a client (no ports, probes or
# certificate of its own).
EXPECTED_LOADGENERATOR = [
    "ConfigMap/binario-loadgenerator",
    "Deployment/loadgenerator",
    "NetworkPolicy/allow-loadgenerator-egress-to-gateway",
]
CLIENT_WORKLOADS = {"loadgenerator"}

VARIANTS = {
    "base": {
        "objects": EXPECTED_BASE,
        "gateway_replicas": 2,
        "gateway_service_type": "ClusterIP",
        "image": re.compile(r"binario:local"),
    },
    "overlays/development": {
        "objects": [o for o in EXPECTED_BASE if o != "PodDisruptionBudget/gateway"],
        "gateway_replicas": 1,
        "gateway_service_type": "ClusterIP",
        "image": re.compile(r"binario:local"),
    },
    "overlays/development-with-google": {
        "objects": [o for o in EXPECTED_BASE if o != "PodDisruptionBudget/gateway"] + EXPECTED_GOOGLE_SIGN_IN,
        "gateway_replicas": 1,
        "gateway_service_type": "ClusterIP",
        "image": re.compile(r"binario:local"),
    },
    "overlays/development-with-tracing": {
        "objects": [o for o in EXPECTED_BASE if o != "PodDisruptionBudget/gateway"] + EXPECTED_TRACING,
        "gateway_replicas": 1,
        "gateway_service_type": "ClusterIP",
        "image": re.compile(r"binario:local"),
        "exports_spans": True,
    },
    "overlays/development-with-loadgenerator": {
        "objects": [o for o in EXPECTED_BASE if o != "PodDisruptionBudget/gateway"] + EXPECTED_LOADGENERATOR,
        "gateway_replicas": 1,
        "gateway_service_type": "ClusterIP",
        "image": re.compile(r"binario:local"),
    },
    "overlays/production": {
        "objects": EXPECTED_BASE + EXPECTED_CERT_MANAGER + EXPECTED_WEB_PUSH,
        "gateway_replicas": 2,
        "gateway_service_type": "LoadBalancer",
        # From a registry, with a tag or digest that is not "local" or "latest".
        "image": re.compile(r"[a-z0-9.-]+(:[0-9]+)?/[^:@]*binario(:(?!local$|latest$)[\w.-]+|@sha256:[0-9a-f]{64})"),
    },
}

# cert-manager.io/v1 fields (v1.15+), to catch misspelt ones as the API server would.
CERTIFICATE_SPEC_FIELDS = {
    "additionalOutputFormats", "commonName", "dnsNames", "duration", "emailAddresses",
    "encodeUsagesInRequest", "ipAddresses", "isCA", "issuerRef", "keystores", "literalSubject",
    "nameConstraints", "otherNames", "privateKey", "renewBefore", "renewBeforePercentage",
    "revisionHistoryLimit", "secretName", "secretTemplate", "signatureAlgorithm", "subject",
    "uris", "usages",
}
PRIVATE_KEY_FIELDS = {"algorithm", "encoding", "rotationPolicy", "size"}
ISSUER_REF_FIELDS = {"group", "kind", "name"}
ISSUER_TYPES = {"acme", "ca", "selfSigned", "vault", "venafi"}
CERTIFICATE_USAGES = {"server auth", "client auth", "digital signature"}


class Checker:
    def __init__(self, variant, documents):
        self.variant = variant
        self.expected = VARIANTS[variant]
        self.documents = documents
        self.failures = []

    def fail(self, where, message):
        self.failures.append(f"{where}: {message}")

    def of_kind(self, kind):
        return [d for d in self.documents if d.get("kind") == kind]

    def named(self, kind, name):
        return next((d for d in self.of_kind(kind) if d["metadata"].get("name") == name), None)

    def workloads(self):
        return self.of_kind("Deployment") + self.of_kind("StatefulSet")

    def run(self):
        self.check_objects()
        self.check_metadata()
        config_maps = {d["metadata"]["name"]: d.get("data") or {} for d in self.of_kind("ConfigMap")}
        for workload in self.workloads():
            if workload["metadata"]["name"] in CLIENT_WORKLOADS:
                self.check_client(workload)
            else:
                self.check_workload(workload, config_maps)
        self.check_services()
        self.check_network_policies()
        self.check_upstreams(config_maps)
        self.check_peer_addresses()
        self.check_cert_manager()
        self.check_span_export(config_maps)
        return self.failures

    # With the tracing component, every process gets the collector's address from binario-tracing.
    def check_span_export(self, config_maps):
        exports = self.expected.get("exports_spans", False)
        for workload in self.workloads():
            name = workload["metadata"]["name"]
            env = [e for c in workload["spec"]["template"]["spec"]["containers"] for e in c.get("env") or []]
            entries = [e for e in env if e.get("name") == "BINARIO_OTLP_ENDPOINT"]
            if not exports:
                if entries:
                    self.fail(f"{workload['kind']}/{name}", "sets BINARIO_OTLP_ENDPOINT without the tracing component")
                continue
            source = (entries[0].get("valueFrom") or {}).get("configMapKeyRef") if len(entries) == 1 else None
            if not source or source.get("name") != "binario-tracing" or source.get("key") != "BINARIO_OTLP_ENDPOINT":
                self.fail(f"{workload['kind']}/{name}", "needs BINARIO_OTLP_ENDPOINT once, from ConfigMap binario-tracing")
        if exports and not (config_maps.get("binario-tracing") or {}).get("BINARIO_OTLP_ENDPOINT", "").startswith("http"):
            self.fail(self.variant, "ConfigMap binario-tracing needs BINARIO_OTLP_ENDPOINT, an http(s) URL")

    # The objects rendered, as kind/name, against the expected list.
    def check_objects(self):
        def key(document):
            kind, name = document.get("kind"), document.get("metadata", {}).get("name", "")
            if kind == "ConfigMap":
                name = re.sub(r"-[a-z0-9]{10}$", "", name)
            return f"{kind}/{name}"

        rendered, expected = Counter(map(key, self.documents)), Counter(self.expected["objects"])
        for missing in sorted((expected - rendered).elements()):
            self.fail(self.variant, f"{missing} is missing (expected by check_rendered.py)")
        for extra in sorted((rendered - expected).elements()):
            self.fail(self.variant, f"{extra} is not expected (add it to check_rendered.py's lists if it should be there)")

    def check_metadata(self):
        for document in self.documents:
            where = f"{document.get('kind')}/{document['metadata'].get('name')}"
            if document.get("kind") != "Namespace" and document["metadata"].get("namespace") != NAMESPACE:
                self.fail(where, f"is not in namespace {NAMESPACE}")
            if (document["metadata"].get("labels") or {}).get(PART_OF_LABEL) != "binario":
                self.fail(where, f"lacks the label {PART_OF_LABEL}: binario")

    # A client workload: the pod and container hardening, resources, only the gateway's CA
    # (never its key) from the gateway's Secret, and egress to the gateway allowed.
    def check_client(self, workload):
        name = workload["metadata"]["name"]
        where = f"{workload['kind']}/{name}"
        pod = workload["spec"]["template"]["spec"]
        security = pod.get("securityContext") or {}
        for field, value in {"runAsNonRoot": True, "runAsUser": UID, "runAsGroup": GID}.items():
            if security.get(field) != value:
                self.fail(where, f"pod securityContext.{field} is {security.get(field)!r}, must be {value!r}")
        if pod.get("automountServiceAccountToken") is not False:
            self.fail(where, "automountServiceAccountToken must be false")
        for volume in pod.get("volumes") or []:
            secret = volume.get("secret")
            if secret and [item.get("key") for item in secret.get("items") or []] != ["ca.crt"]:
                self.fail(where, f"volume {volume['name']}: may take only ca.crt from Secret {secret.get('secretName')}")
        for container in pod.get("containers") or []:
            container_where = f"{where} container {container['name']}"
            if not self.expected["image"].fullmatch(container.get("image", "")):
                self.fail(container_where, f"image {container.get('image')!r} does not match {self.expected['image'].pattern!r}")
            container_security = container.get("securityContext") or {}
            if container_security.get("allowPrivilegeEscalation") is not False or container_security.get("readOnlyRootFilesystem") is not True:
                self.fail(container_where, "needs allowPrivilegeEscalation: false and readOnlyRootFilesystem: true")
            if (container_security.get("capabilities") or {}).get("drop") != ["ALL"]:
                self.fail(container_where, 'securityContext.capabilities.drop must be ["ALL"]')
            if container.get("ports"):
                self.fail(container_where, "a client listens on no port")
            resources = container.get("resources") or {}
            for section, field in [("requests", "cpu"), ("requests", "memory"), ("limits", "memory")]:
                if field not in (resources.get(section) or {}):
                    self.fail(container_where, f"resources.{section}.{field} is not set")
        for port in (7100, 7110, 7443):
            if not self.allows("egress", name, "gateway", port):
                self.fail(where, f"no NetworkPolicy lets it reach the gateway on {port}")

    def check_workload(self, workload, config_maps):
        kind, name = workload["kind"], workload["metadata"]["name"]
        where = f"{kind}/{name}"
        spec = workload["spec"]
        template = spec["template"]
        pod = template["spec"]
        app = (template["metadata"].get("labels") or {}).get(NAME_LABEL)
        if app != name:
            self.fail(where, f"pod template label {NAME_LABEL} is {app!r}, not {name!r}")
        if spec.get("selector", {}).get("matchLabels") != {NAME_LABEL: name}:
            self.fail(where, f"selector must be exactly matchLabels {{{NAME_LABEL}: {name}}} (stable across label changes)")

        if kind == "StatefulSet":
            if spec.get("replicas") != 1:
                self.fail(where, f"replicas is {spec.get('replicas')}, must be 1 (one writer per SQLite file)")
            if not spec.get("volumeClaimTemplates"):
                self.fail(where, "has no volumeClaimTemplate (its data would not survive the pod)")
            headless = self.named("Service", spec.get("serviceName"))
            if headless is None or headless["spec"].get("clusterIP") != "None":
                self.fail(where, f"serviceName {spec.get('serviceName')!r} is not a headless Service of this rendering")
        elif name == "gateway" and spec.get("replicas") != self.expected["gateway_replicas"]:
            self.fail(where, f"replicas is {spec.get('replicas')}, expected {self.expected['gateway_replicas']} in {self.variant}")

        security = pod.get("securityContext") or {}
        wanted = {"runAsNonRoot": True, "runAsUser": UID, "runAsGroup": GID, "fsGroup": GID}
        for field, value in wanted.items():
            if security.get(field) != value:
                self.fail(where, f"pod securityContext.{field} is {security.get(field)!r}, must be {value!r}")
        if (security.get("seccompProfile") or {}).get("type") != "RuntimeDefault":
            self.fail(where, "pod securityContext.seccompProfile.type must be RuntimeDefault")
        if pod.get("automountServiceAccountToken") is not False:
            self.fail(where, "automountServiceAccountToken must be false")

        annotations = template["metadata"].get("annotations") or {}
        if annotations.get("prometheus.io/scrape") != "true" or annotations.get("prometheus.io/path") != "/metrics":
            self.fail(where, 'pod template needs prometheus.io/scrape: "true" and prometheus.io/path: /metrics')

        volumes = {v["name"]: v for v in pod.get("volumes") or []}
        claims = {c["metadata"]["name"] for c in spec.get("volumeClaimTemplates") or []}
        tls_volumes = [v for v in volumes.values() if (v.get("secret") or {}).get("secretName") == f"binario-{app}-tls"]
        if not tls_volumes:
            self.fail(where, f"does not mount the Secret binario-{app}-tls (for {NAME_LABEL}: {app})")
        for volume in tls_volumes:
            if volume["secret"].get("defaultMode") != TLS_MODE:
                self.fail(where, f"volume {volume['name']}: secret defaultMode must be 0440")
            if volume["secret"].get("optional"):
                self.fail(where, f"volume {volume['name']}: the certificate Secret must not be optional")

        containers = pod.get("containers") or []
        if not containers:
            self.fail(where, "has no containers")
        for container in containers + (pod.get("initContainers") or []):
            self.check_container(where, container, pod, volumes, claims, tls_volumes, annotations, config_maps)

    def check_container(self, workload, container, pod, volumes, claims, tls_volumes, annotations, config_maps):
        where = f"{workload} container {container['name']}"
        if not self.expected["image"].fullmatch(container.get("image", "")):
            self.fail(where, f"image {container.get('image')!r} does not match {self.expected['image'].pattern!r} for {self.variant}")
        if not container.get("command"):
            self.fail(where, "has no command (the image holds several executables)")

        security = container.get("securityContext") or {}
        if security.get("allowPrivilegeEscalation") is not False:
            self.fail(where, "securityContext.allowPrivilegeEscalation must be false")
        if security.get("readOnlyRootFilesystem") is not True:
            self.fail(where, "securityContext.readOnlyRootFilesystem must be true")
        if (security.get("capabilities") or {}).get("drop") != ["ALL"]:
            self.fail(where, 'securityContext.capabilities.drop must be ["ALL"]')

        resources = container.get("resources") or {}
        for section, field in [("requests", "cpu"), ("requests", "memory"), ("limits", "memory")]:
            if field not in (resources.get(section) or {}):
                self.fail(where, f"resources.{section}.{field} is not set")

        # Environment: inline env and the ConfigMaps of envFrom.
        environment = {}
        for source in container.get("envFrom") or []:
            reference = (source.get("configMapRef") or {}).get("name")
            if reference is None or source.get("prefix"):
                self.fail(where, "envFrom may only name a ConfigMap of this rendering, without prefix")
            elif reference not in config_maps:
                self.fail(where, f"envFrom names ConfigMap {reference!r}, which is not rendered")
            else:
                environment.update(config_maps[reference])
        for variable in container.get("env") or []:
            environment[variable["name"]] = variable.get("value")
        for variable in environment:
            if not variable.startswith("BINARIO_"):
                self.fail(where, f"environment variable {variable} does not start with BINARIO_ (the processes read no other)")

        ports = {p.get("name"): p["containerPort"] for p in container.get("ports") or []}
        for port_name, variable in [("binario", "BINARIO_PORT"), ("metrics", "BINARIO_METRICS_PORT")]:
            if port_name not in ports:
                self.fail(where, f"has no container port named {port_name!r}")
            elif environment.get(variable) != str(ports[port_name]):
                self.fail(where, f"{variable} is {environment.get(variable)!r}, but port {port_name!r} is {ports[port_name]}")
        if "metrics" in ports and annotations.get("prometheus.io/port") != str(ports["metrics"]):
            self.fail(where, f"prometheus.io/port is {annotations.get('prometheus.io/port')!r}, but the metrics port is {ports['metrics']}")

        for probe, path in [("livenessProbe", "/livez"), ("readinessProbe", "/readyz"), ("startupProbe", "/livez")]:
            if probe == "startupProbe" and probe not in container:
                continue
            action = (container.get(probe) or {}).get("httpGet")
            if action is None:
                self.fail(where, f"has no {probe} with httpGet {path}")
            elif action.get("path") != path or action.get("port") not in ("metrics", ports.get("metrics")):
                self.fail(where, f"{probe} must GET {path} on the metrics port, not {action.get('path')} on {action.get('port')}")

        try:
            grace = int(environment["BINARIO_SHUTDOWN_GRACE_PERIOD"])
        except (KeyError, TypeError, ValueError):
            self.fail(where, "BINARIO_SHUTDOWN_GRACE_PERIOD is not set to a number of seconds")
        else:
            termination = pod.get("terminationGracePeriodSeconds", 30)
            if termination < grace + SHUTDOWN_BACKSTOP_SECONDS:
                self.fail(where, f"terminationGracePeriodSeconds {termination} < BINARIO_SHUTDOWN_GRACE_PERIOD {grace} + {SHUTDOWN_BACKSTOP_SECONDS} (Kubernetes would kill it mid-shutdown)")

        mounts = {m["mountPath"]: m for m in container.get("volumeMounts") or []}
        for mount in mounts.values():
            if mount["name"] not in volumes and mount["name"] not in claims:
                self.fail(where, f"mounts {mount['name']!r}, which is no volume of the pod")
        tls_mount = mounts.get(TLS_MOUNT)
        if tls_mount is None or tls_mount["name"] not in {v["name"] for v in tls_volumes} or not tls_mount.get("readOnly"):
            self.fail(where, f"must mount its certificate Secret read-only at {TLS_MOUNT}")
        for variable, key in [("BINARIO_TLS_CERTIFICATE", "tls.crt"), ("BINARIO_TLS_PRIVATE_KEY", "tls.key"), ("BINARIO_TLS_TRUSTED_CA", "ca.crt")]:
            if environment.get(variable) != f"{TLS_MOUNT}/{key}":
                self.fail(where, f"{variable} must be {TLS_MOUNT}/{key}")
        tmp = mounts.get("/tmp")
        if tmp is None or "emptyDir" not in volumes.get(tmp["name"], {}):
            self.fail(where, "must mount an emptyDir at /tmp (the root filesystem is read-only)")

        # The data directory must lie on a writable volume.
        data = environment.get("BINARIO_DATA_DIRECTORY")
        writable = [path for path, m in mounts.items() if not m.get("readOnly") and is_within(data or "", path)]
        if not data:
            self.fail(where, "BINARIO_DATA_DIRECTORY is not set")
        elif not writable:
            self.fail(where, f"BINARIO_DATA_DIRECTORY {data} is on no writable volume (the root filesystem is read-only)")

        # A service with a database keeps its backups on a volume claim of their own.
        if claims:
            backups = environment.get("BINARIO_BACKUP_DIRECTORY")
            mount = mounts.get(backups or "")
            if mount is None or mount["name"] == (mounts.get(data or "") or {}).get("name") or mount["name"] not in claims or mount.get("readOnly"):
                self.fail(where, "BINARIO_BACKUP_DIRECTORY must be the mount of a writable volume claim of its own (not the data volume)")

    def check_services(self):
        for service in self.of_kind("Service"):
            name = service["metadata"]["name"]
            where = f"Service/{name}"
            kind = service["spec"].get("type", "ClusterIP")
            if name == "gateway":
                if kind != self.expected["gateway_service_type"]:
                    self.fail(where, f"type is {kind}, expected {self.expected['gateway_service_type']} in {self.variant}")
                if kind == "LoadBalancer" and service["spec"].get("externalTrafficPolicy") != "Local":
                    self.fail(where, "externalTrafficPolicy must be Local (the gateway rate-limits by client IP)")
            elif kind in ("LoadBalancer", "NodePort"):
                self.fail(where, f"type {kind}: only the gateway may be reachable from outside the cluster")
            selector = service["spec"].get("selector") or {}
            targets = [w for w in self.workloads() if selector and selector.items() <= (w["spec"]["template"]["metadata"].get("labels") or {}).items()]
            if not targets:
                self.fail(where, f"selector {selector} selects no workload of this rendering")
            for port in service["spec"].get("ports") or []:
                target = port.get("targetPort", port["port"])
                for workload in targets:
                    names = {p.get("name") for c in workload["spec"]["template"]["spec"]["containers"] for p in c.get("ports") or []}
                    numbers = {p["containerPort"] for c in workload["spec"]["template"]["spec"]["containers"] for p in c.get("ports") or []}
                    if target not in names | numbers:
                        self.fail(where, f"targetPort {target!r} is no container port of {workload['kind']}/{workload['metadata']['name']}")

    def check_network_policies(self):
        policies = self.of_kind("NetworkPolicy")
        deny = [p for p in policies
                if p["spec"].get("podSelector") == {}
                and set(p["spec"].get("policyTypes") or []) == {"Ingress", "Egress"}
                and not p["spec"].get("ingress") and not p["spec"].get("egress")]
        if not deny:
            self.fail(self.variant, "no default-deny NetworkPolicy (podSelector {}, policyTypes Ingress and Egress, no rules)")
        apps = {w["metadata"]["name"] for w in self.workloads()}
        for policy in policies:
            selector = policy["spec"].get("podSelector") or {}
            if selector and selector != {"matchLabels": {NAME_LABEL: selector.get("matchLabels", {}).get(NAME_LABEL)}}:
                self.fail(f"NetworkPolicy/{policy['metadata']['name']}", f"podSelector must be {{}} or matchLabels {{{NAME_LABEL}: <workload>}}")
            elif selector and selector["matchLabels"][NAME_LABEL] not in apps:
                self.fail(f"NetworkPolicy/{policy['metadata']['name']}", f"podSelector selects {selector['matchLabels'][NAME_LABEL]!r}, no workload of this rendering")

    def allows(self, direction, selected, peer, port):
        """Whether a NetworkPolicy selecting pods `selected` lets them talk to/from pods `peer` on `port`."""
        peers_key = "to" if direction == "egress" else "from"
        policy_type = "Egress" if direction == "egress" else "Ingress"
        for policy in self.of_kind("NetworkPolicy"):
            selector = policy["spec"].get("podSelector") or {}
            if selector and selector.get("matchLabels", {}).get(NAME_LABEL) != selected:
                continue
            if policy_type not in (policy["spec"].get("policyTypes") or []):
                continue
            for rule in policy["spec"].get(direction) or []:
                peers = rule.get(peers_key)
                peer_ok = peers is None or any(
                    "namespaceSelector" not in p and "ipBlock" not in p
                    and (p.get("podSelector") == {} or (p.get("podSelector") or {}).get("matchLabels", {}).get(NAME_LABEL) == peer)
                    for p in peers)
                ports = rule.get("ports")
                port_ok = ports is None or any(p.get("port") in (port, None) and p.get("protocol", "TCP") == "TCP" for p in ports)
                if peer_ok and port_ok:
                    return True
        return False

    # Each of the gateway's upstreams is a Service of this rendering, and the NetworkPolicies let
    # the gateway reach its pods (egress on the gateway, ingress on the service).
    def check_upstreams(self, config_maps):
        gateway = self.named("Deployment", "gateway")
        if gateway is None:
            return
        container = gateway["spec"]["template"]["spec"]["containers"][0]
        value = next((v.get("value") for v in container.get("env") or [] if v["name"] == "BINARIO_UPSTREAM"), None)
        if not value:
            self.fail("Deployment/gateway", "BINARIO_UPSTREAM is not set")
            return
        for entry in value.split(","):
            match = re.fullmatch(r"([a-z0-9-]+)=([a-z0-9.-]+):([0-9]+)", entry.strip())
            if not match:
                self.fail("Deployment/gateway", f"BINARIO_UPSTREAM entry {entry!r} is not name=host:port")
                continue
            host, port = match.group(2), int(match.group(3))
            service = self.named("Service", host.split(".")[0])
            where = f"BINARIO_UPSTREAM {entry}"
            if service is None:
                self.fail(where, f"no Service {host!r} in this rendering")
                continue
            service_port = next((p for p in service["spec"].get("ports") or [] if p["port"] == port), None)
            app = (service["spec"].get("selector") or {}).get(NAME_LABEL)
            workload = next((w for w in self.workloads() if w["metadata"]["name"] == app), None)
            if service_port is None or workload is None:
                self.fail(where, f"Service {host} has no port {port} selecting a workload")
                continue
            target = service_port.get("targetPort", port)
            pod_ports = {p.get("name"): p["containerPort"] for c in workload["spec"]["template"]["spec"]["containers"] for p in c.get("ports") or []}
            pod_port = pod_ports.get(target, target)
            if not self.allows("egress", "gateway", app, pod_port):
                self.fail(where, f"no NetworkPolicy lets the gateway's pods egress to {app}'s pods on {pod_port}")
            if not self.allows("ingress", app, "gateway", pod_port):
                self.fail(where, f"no NetworkPolicy lets {app}'s pods accept the gateway on {pod_port}")

    # Each service's BINARIO_<PEER>_ADDRESS (a service it calls) is a Service of this rendering,
    # and the NetworkPolicies let the caller's pods reach the peer's (egress on the caller,
    # ingress on the peer).
    def check_peer_addresses(self):
        for workload in self.workloads():
            caller = workload["metadata"]["name"]
            for container in workload["spec"]["template"]["spec"]["containers"]:
                for variable in container.get("env") or []:
                    if not re.fullmatch(r"BINARIO_[A-Z_]+_ADDRESS", variable["name"]) or "value" not in variable:
                        continue
                    where = f"{workload['kind']}/{caller} {variable['name']}={variable['value']}"
                    match = re.fullmatch(r"([a-z0-9.-]+):([0-9]+)", variable["value"])
                    if not match:
                        self.fail(where, "is not host:port")
                        continue
                    service = self.named("Service", match.group(1).split(".")[0])
                    port = int(match.group(2))
                    service_port = next((p for p in (service or {}).get("spec", {}).get("ports") or [] if p["port"] == port), None)
                    if service is None or service_port is None:
                        self.fail(where, "no Service with that port in this rendering")
                        continue
                    app = (service["spec"].get("selector") or {}).get(NAME_LABEL)
                    peer = next((w for w in self.workloads() if w["metadata"]["name"] == app), None)
                    if peer is None:
                        self.fail(where, f"Service {service['metadata']['name']} selects no workload")
                        continue
                    target = service_port.get("targetPort", port)
                    pod_ports = {p.get("name"): p["containerPort"] for c in peer["spec"]["template"]["spec"]["containers"] for p in c.get("ports") or []}
                    pod_port = pod_ports.get(target, target)
                    if not self.allows("egress", caller, app, pod_port):
                        self.fail(where, f"no NetworkPolicy lets {caller}'s pods egress to {app}'s pods on {pod_port}")
                    if not self.allows("ingress", app, caller, pod_port):
                        self.fail(where, f"no NetworkPolicy lets {app}'s pods accept {caller}'s on {pod_port}")

    def check_cert_manager(self):
        certificates = self.of_kind("Certificate")
        issuers = {i["metadata"]["name"]: i for i in self.of_kind("Issuer")}
        ca_secrets = {c["spec"].get("secretName") for c in certificates if c["spec"].get("isCA")}

        for issuer in issuers.values():
            where = f"Issuer/{issuer['metadata']['name']}"
            if issuer.get("apiVersion") != "cert-manager.io/v1":
                self.fail(where, "apiVersion must be cert-manager.io/v1")
            types = set(issuer.get("spec") or {}) & ISSUER_TYPES
            if len(types) != 1 or set(issuer.get("spec") or {}) - ISSUER_TYPES:
                self.fail(where, f"spec must hold exactly one of {sorted(ISSUER_TYPES)}")
            elif "ca" in types and issuer["spec"]["ca"].get("secretName") not in ca_secrets:
                self.fail(where, f"ca.secretName {issuer['spec']['ca'].get('secretName')!r} is no isCA Certificate's secretName")

        for certificate in certificates:
            name = certificate["metadata"]["name"]
            where = f"Certificate/{name}"
            spec = certificate.get("spec") or {}
            if certificate.get("apiVersion") != "cert-manager.io/v1":
                self.fail(where, "apiVersion must be cert-manager.io/v1")
            for field in sorted(set(spec) - CERTIFICATE_SPEC_FIELDS):
                self.fail(where, f"spec.{field} is no Certificate field")
            for field in sorted(set(spec.get("privateKey") or {}) - PRIVATE_KEY_FIELDS):
                self.fail(where, f"spec.privateKey.{field} is no Certificate field")
            if not spec.get("secretName"):
                self.fail(where, "spec.secretName is not set")
            reference = spec.get("issuerRef") or {}
            for field in sorted(set(reference) - ISSUER_REF_FIELDS):
                self.fail(where, f"spec.issuerRef.{field} is no Certificate field")
            if reference.get("kind", "Issuer") != "Issuer" or reference.get("group", "cert-manager.io") != "cert-manager.io" or reference.get("name") not in issuers:
                self.fail(where, f"spec.issuerRef {reference} names no Issuer of this rendering")
            if not spec.get("commonName") and not spec.get("dnsNames") and not spec.get("uris"):
                self.fail(where, "needs a commonName, dnsNames or uris")
            key = spec.get("privateKey") or {}
            if key.get("algorithm") != "ECDSA" or key.get("size") != 256:
                self.fail(where, "privateKey must be ECDSA, size 256 (P-256)")
            if spec.get("isCA"):
                continue

            match = re.fullmatch(r"binario-([a-z0-9-]+)-tls", spec.get("secretName") or "")
            if not match:
                self.fail(where, f"secretName {spec.get('secretName')!r} is not binario-<name>-tls")
                continue
            process = match.group(1)
            if spec.get("uris") != [f"spiffe://binario/{process}"]:
                self.fail(where, f"uris must be [spiffe://binario/{process}] (the identity the services authorize), not {spec.get('uris')}")
            for dns_name in [process, f"{process}.{NAMESPACE}.svc", f"{process}.{NAMESPACE}.svc.cluster.local"]:
                if dns_name not in (spec.get("dnsNames") or []):
                    self.fail(where, f"dnsNames lacks {dns_name}")
            if key.get("encoding") != "PKCS8":
                self.fail(where, "privateKey.encoding must be PKCS8")
            if not CERTIFICATE_USAGES <= set(spec.get("usages") or []):
                self.fail(where, f"usages must include {sorted(CERTIFICATE_USAGES)}")
            if issuers.get(reference.get("name"), {}).get("spec", {}).get("ca") is None:
                self.fail(where, "must be issued by the CA Issuer (so ca.crt is the deployment CA)")
            duration, renew = hours(spec.get("duration")), hours(spec.get("renewBefore"))
            if duration is None or renew is None or not 0 < renew < duration:
                self.fail(where, f"duration {spec.get('duration')!r} and renewBefore {spec.get('renewBefore')!r} must be hours with 0 < renewBefore < duration")

        # With cert-manager, every mounted certificate Secret is one it issues.
        if certificates:
            issued = {c["spec"].get("secretName") for c in certificates}
            for workload in self.workloads():
                for volume in workload["spec"]["template"]["spec"].get("volumes") or []:
                    secret = (volume.get("secret") or {}).get("secretName")
                    if secret and secret.endswith("-tls") and secret not in issued:
                        self.fail(f"{workload['kind']}/{workload['metadata']['name']}", f"mounts Secret {secret}, for which there is no Certificate")


def is_within(path, directory):
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def hours(duration):
    """Hours in a Go duration of whole hours and minutes such as "2160h" or "1h30m"; None otherwise."""
    match = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?", duration or "")
    if not duration or not match:
        return None
    return int(match.group(1) or 0) + int(match.group(2) or 0) / 60


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in VARIANTS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(VARIANTS)}}} RENDERED.yaml")
    variant, path = sys.argv[1], sys.argv[2]
    with open(path) as file:
        documents = [d for d in yaml.safe_load_all(file) if d]
    failures = Checker(variant, documents).run()
    for failure in failures:
        print(f"  {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(len(documents))


if __name__ == "__main__":
    main()
