#!/usr/bin/env bash
# The local cluster's certificates, made with openssl into $1 (once per cluster): a cluster CA,
# the API server's serving certificate, a client certificate per component (its name and group
# are what RBAC and the Node authorizer see), the front proxy's CA and client (for
# metrics-server's aggregated API), and the service-account signing key.
set -euo pipefail
DIR=$1 HOST_IP=$2 NODE=$3
mkdir -p "$DIR"; cd "$DIR"
[ -f done ] && exit 0

ca() { # name cn
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=$2" \
    -keyout "$1.key" -out "$1.crt" 2>/dev/null
}
# cert name ca subject [subjectAltNames]
cert() {
  local ext; ext=$(mktemp)
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' > "$ext"
  if [ -n "${4:-}" ]; then
    printf 'extendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=%s\n' "$4" >> "$ext"
  else
    printf 'extendedKeyUsage=clientAuth\n' >> "$ext"
  fi
  openssl req -newkey rsa:2048 -nodes -subj "$3" -keyout "$1.key" -out "$1.csr" 2>/dev/null
  openssl x509 -req -in "$1.csr" -CA "$2.crt" -CAkey "$2.key" -CAcreateserial -days 3650 \
    -extfile "$ext" -out "$1.crt" 2>/dev/null
  rm -f "$1.csr" "$ext"
}

ca ca santa-local-cluster-ca
ca front-proxy-ca santa-local-front-proxy-ca
cert apiserver ca "/CN=kube-apiserver" \
  "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,IP:10.96.0.1,IP:127.0.0.1,IP:$HOST_IP"
cert admin ca "/O=system:masters/CN=santa-admin"
cert apiserver-kubelet-client ca "/O=system:masters/CN=kube-apiserver-kubelet-client"
cert controller-manager ca "/CN=system:kube-controller-manager"
cert scheduler ca "/CN=system:kube-scheduler"
cert kube-proxy ca "/CN=system:kube-proxy"
cert kube-router ca "/CN=santa:kube-router"
cert kubelet ca "/O=system:nodes/CN=system:node:$NODE"
cert kubelet-serving ca "/CN=$NODE" "DNS:$NODE,IP:$HOST_IP,IP:127.0.0.1"
cert front-proxy-client front-proxy-ca "/CN=front-proxy-client"
openssl genrsa -out sa.key 2048 2>/dev/null
openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
touch done
