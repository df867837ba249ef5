# The start the cluster's test scripts share (k8s-test.sh, skaffold-test.sh), sourced after
# they set HERE, ROOT and SUITE: where results go, log and fail, and the cluster brought up (or
# reused) with kubectl pointed at it. t0 is when the suite started.
RESULTS=$ROOT/.dev/$SUITE
mkdir -p "$RESULTS"
log() { printf '\n\033[1;35m[%s]\033[0m %s\n' "$SUITE" "$*"; }
failed=0
fail() { log "FAILED: $*"; failed=1; }

deploy/chartcheck/install-helm.sh >/dev/null || exit 1
t0=$SECONDS
"$HERE/cluster.sh" up || exit 1
eval "$("$HERE/cluster.sh" env)"
