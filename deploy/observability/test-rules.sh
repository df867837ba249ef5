#!/usr/bin/env bash
# make alerts-test (and a step of make test): the alert rules checked and unit-tested by promtool
# (alerts_test.yaml), with no cluster and no Prometheus running. promtool comes from Debian's
# prometheus package (2.42, the same Prometheus the local cluster runs), installed when missing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

install_prometheus() {
  # Installing must not start the packages' daemons (PID 1 here is no init system, but a
  # machine with one would start them): a policy-rc.d that refuses, unless one is there.
  local policy=/usr/sbin/policy-rc.d
  if [ ! -e $policy ]; then
    printf '#!/bin/sh\nexit 101\n' > $policy && chmod +x $policy
    trap "rm -f $policy" EXIT
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus prometheus-alertmanager >/dev/null
}

command -v promtool >/dev/null || install_prometheus
cd "$HERE"
promtool check rules alerts.yaml
promtool test rules alerts_test.yaml
