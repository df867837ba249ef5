# shellcheck shell=bash
# Sourced by deploy/cluster/build.sh and images.sh: the cluster's build plan
# (deploy/cluster/buildplan), built into the checkout's .dev/bin, again when its source is newer
# than the build. Needs HERE (deploy/cluster) and ROOT (the checkout). Built on its own
# (GOWORK=off): it needs the standard library only, not the workspace's modules.
PLAN=$ROOT/.dev/bin/buildplan
if [ ! -x "$PLAN" ] || [ -n "$(find "$HERE/buildplan" -newer "$PLAN" -print -quit)" ]; then
  mkdir -p "$ROOT/.dev/bin"
  (cd "$HERE/buildplan" && CGO_ENABLED=0 GOWORK=off go build -trimpath -o "$PLAN.$$" .) && mv "$PLAN.$$" "$PLAN"
fi
plan() { "$PLAN" -root "$ROOT" "$@"; }
