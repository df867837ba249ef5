#!/bin/sh
# Installs the pinned helm the chart tests use into $HOME/.cache/santa/bin, unless it is there
# already. `go install` compiles it (a few minutes, once); the Go module proxy is the only
# network it needs.
set -eu

HELM_VERSION=v3.22.0
BIN="${HOME}/.cache/santa/bin"
HELM="${BIN}/helm"
STAMP="${BIN}/.helm-version"

if [ -x "$HELM" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$HELM_VERSION" ]; then
  exit 0
fi
mkdir -p "$BIN"
echo "installing helm ${HELM_VERSION} into ${BIN} (compiles for a few minutes, once)" >&2
# Outside the repository, so the workspace's go.work plays no part.
cd /tmp
GOBIN="$BIN" GOFLAGS=-buildvcs=false go install "helm.sh/helm/v3/cmd/helm@${HELM_VERSION}"
echo "$HELM_VERSION" > "$STAMP"
"$HELM" version --short >&2
