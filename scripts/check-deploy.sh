#!/usr/bin/env bash
# Offline checks of everything under deploy/ and docker-compose.yml (no Docker engine or cluster):
#   the Dockerfile with hadolint; docker-compose.yml against the compose-spec schema, then as
#   podman-compose resolves it against the rules in deploy/check_compose.py; the Kubernetes
#   manifests (scripts/check-kubernetes.sh); the Secrets binario-dev-certs writes, against the
#   Kubernetes schema. Tools: pinned, from deploy/python-tools.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

# podman-compose resolves the compose file with podman's help.
scripts/install-system-packages.sh podman
scripts/install-python-tools.sh
tools=.tools/venv/bin

$tools/hadolint deploy/Dockerfile
echo "deploy/Dockerfile: hadolint clean"

$tools/check-jsonschema --builtin-schema vendor.compose-spec docker-compose.yml
if $tools/podman-compose config >/dev/null 2>&1; then
  echo "docker-compose.yml: resolves without BINARIO_ADMIN_PASSWORD; it must demand it" >&2
  exit 1
fi
BINARIO_ADMIN_PASSWORD=checking $tools/podman-compose config | $tools/python deploy/check_compose.py docker-compose.yml

scripts/check-kubernetes.sh

# The dev tool's Secrets (what deploy/kubernetes mounts when cert-manager is not used).
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/binario-dev-certs" --out "$work/certs" --kubernetes-secrets "$work/secrets.yaml" >/dev/null
$tools/kubernetes-validate --strict --quiet "$work/secrets.yaml"
echo "binario-dev-certs --kubernetes-secrets: $(grep -c '^kind: Secret' "$work/secrets.yaml") Secrets valid"
