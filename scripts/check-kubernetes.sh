#!/usr/bin/env bash
# Checks the Kubernetes manifests of deploy/kubernetes offline: renders base and each overlay
# with kubectl kustomize (the components through overlays/production), validates every document
# against the Kubernetes API schemas (kubernetes-validate --strict), and checks the kinds, the
# cert-manager objects and the suite's rules with deploy/kubernetes/check_rendered.py.
#   scripts/check-kubernetes.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# The API version the schemas are taken from (kubernetes-validate ships 1.25 to 1.37).
kubernetes_version=1.32.0
variants=(base overlays/development overlays/development-with-google overlays/development-with-tracing overlays/development-with-loadgenerator overlays/production)

if ! command -v kubectl >/dev/null 2>&1; then
  echo "check-kubernetes: kubectl not found; install kubectl 1.27 or later (it renders the manifests with its built-in kustomize)" >&2
  exit 1
fi
scripts/install-python-tools.sh
venv=.tools/venv

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failed=0
for variant in "${variants[@]}"; do
  label=kubernetes/$variant
  rendered=$work/${variant//\//-}.yaml
  ok=1

  if ! kubectl kustomize "deploy/kubernetes/$variant" >"$rendered" 2>"$work/kustomize.log"; then
    echo "$label: FAILED: kubectl kustomize deploy/kubernetes/$variant:" >&2
    sed 's/^/  /' "$work/kustomize.log" >&2
    failed=1
    continue
  fi

  # kubernetes-validate only warns about kinds it has no schema for: allow that for
  # cert-manager's, whose fields check_rendered.py checks; anything else it prints fails.
  if ! "$venv/bin/kubernetes-validate" --strict --quiet -k "$kubernetes_version" "$rendered" >"$work/validate.log" 2>&1; then
    ok=0
  fi
  if grep -v -E "^WARN .* Couldn't find schema for kind (Certificate|Issuer) with api version cert-manager\.io/v1 " "$work/validate.log" >"$work/validate-problems.log"; then
    ok=0
  fi
  if [ "$ok" = 0 ]; then
    echo "$label: schema validation (kubernetes-validate --strict, Kubernetes $kubernetes_version):" >&2
    sed "s|$rendered|rendered|; s/^/  /" "$work/validate-problems.log" >&2
  fi

  if ! count=$("$venv/bin/python" deploy/kubernetes/check_rendered.py "$variant" "$rendered" 2>"$work/check.log"); then
    ok=0
    echo "$label: deploy/kubernetes/check_rendered.py:" >&2
    cat "$work/check.log" >&2
  fi

  if [ "$ok" = 1 ]; then
    echo "$label: $count documents valid"
  else
    echo "$label: FAILED" >&2
    failed=1
  fi
done
# The restore Job deploy/kubernetes/restore.sh runs, for every service with a database: valid
# against the schemas, on the volume claims the service's StatefulSet makes (data-<service>-0,
# backups-<service>-0), running the image's binario-backup.
rendered=$work/base.yaml
for service in identity scheduling ticketing geo-offers dispatch telemetry; do
  job=$work/restore-$service.yaml
  deploy/kubernetes/restore.sh "$service" --render >"$job"
  if ! "$venv/bin/kubernetes-validate" --strict --quiet -k "$kubernetes_version" "$job" >"$work/validate.log" 2>&1 \
    || ! grep -q "claimName: data-$service-0" "$job" || ! grep -q "claimName: backups-$service-0" "$job" \
    || ! grep -q "name: backups\$" "$rendered"; then
    echo "kubernetes/restore.sh $service: FAILED" >&2
    sed 's/^/  /' "$work/validate.log" >&2
    failed=1
  fi
done
[ "$failed" = 1 ] || echo "kubernetes/restore.sh: the restore Job of each of the 6 services valid"
exit "$failed"
