#!/usr/bin/env bash
# Restores a service's database from one of its backups, in Kubernetes (deploy/README.md,
# "Backups and restore"): scales the service's StatefulSet to 0, runs `binario-backup restore` as
# a Job on its two volumes (data-<service>-0 and backups-<service>-0), prints what it did, and
# scales the StatefulSet back to 1.
#
#   deploy/kubernetes/restore.sh SERVICE [--file BACKUP] [--namespace NAMESPACE] [--image IMAGE]
#   deploy/kubernetes/restore.sh SERVICE --render       only print the Job (scripts/check-kubernetes.sh
#                                                         validates it for every service)
#
# Without --file, the newest backup; `kubectl exec <service>-0 -- binario-backup list` lists them.
set -euo pipefail

usage() { sed -n '2,11p' "$0" >&2; exit 2; }
[ $# -ge 1 ] || usage
service=$1
shift
file="" namespace=binario image=binario:local render=false
while [ $# -gt 0 ]; do
  case "$1" in
    --file) file=$2; shift 2 ;;
    --namespace) namespace=$2; shift 2 ;;
    --image) image=$2; shift 2 ;;
    --render) render=true; shift ;;
    *) usage ;;
  esac
done
case "$service" in
  identity | scheduling | ticketing | geo-offers | dispatch | telemetry) ;;
  *) echo "restore.sh: $service is not a service with a database (identity, scheduling, ticketing, geo-offers, dispatch, telemetry)" >&2; exit 2 ;;
esac
which=(--latest)
[ -n "$file" ] && which=(--file "/var/lib/binario-backups/$(basename "$file")")
job=restore-$service

render_job() {
  cat <<YAML
# Restores $service's database from its backups (deploy/kubernetes/restore.sh); $service must be
# scaled to 0 (its pod holds the volumes, and its process the data directory's lock).
apiVersion: batch/v1
kind: Job
metadata:
  name: $job
  namespace: $namespace
  labels:
    app.kubernetes.io/name: $job
    app.kubernetes.io/part-of: binario
spec:
  backoffLimit: 0
  ttlSecondsAfterFinished: 3600
  template:
    metadata:
      labels:
        app.kubernetes.io/name: $job
    spec:
      restartPolicy: Never
      automountServiceAccountToken: false
      enableServiceLinks: false
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
        runAsGroup: 10001
        fsGroup: 10001
        fsGroupChangePolicy: OnRootMismatch
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: restore
          image: $image
          command: ["binario-backup", "restore", "--service", "$service", $(printf '"%s", ' "${which[@]}" | sed 's/, $//')]
          env:
            - name: BINARIO_DATA_DIRECTORY
              value: /var/lib/binario
            - name: BINARIO_BACKUP_DIRECTORY
              value: /var/lib/binario-backups
          resources:
            requests:
              cpu: 100m
              memory: 64Mi
            limits:
              memory: 256Mi
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: ["ALL"]
          volumeMounts:
            - name: data
              mountPath: /var/lib/binario
            - name: backups
              mountPath: /var/lib/binario-backups
              readOnly: true
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: data-$service-0
        - name: backups
          persistentVolumeClaim:
            claimName: backups-$service-0
        - name: tmp
          emptyDir:
            sizeLimit: 256Mi
YAML
}

if [ "$render" = true ]; then
  render_job
  exit 0
fi

kubectl="kubectl --namespace $namespace"
echo "Stopping $service (scaling its StatefulSet to 0)..."
$kubectl scale statefulset "$service" --replicas=0
$kubectl wait --for=delete "pod/$service-0" --timeout=120s
$kubectl delete job "$job" --ignore-not-found
render_job | $kubectl apply -f -
echo "Restoring..."
if ! $kubectl wait --for=condition=complete "job/$job" --timeout=300s; then
  $kubectl logs "job/$job" >&2 || true
  echo "restore.sh: the restore failed; $service stays scaled to 0 (its database untouched if the backup was refused)" >&2
  exit 1
fi
$kubectl logs "job/$job"
echo "Starting $service again..."
$kubectl scale statefulset "$service" --replicas=1
$kubectl rollout status "statefulset/$service" --timeout=300s
