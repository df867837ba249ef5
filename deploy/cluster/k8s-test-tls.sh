# shellcheck shell=bash
# Part of deploy/cluster/k8s-test.sh (sourced by it): HTTPS at the ingress. cert-manager (our
# controller, deploy/cluster/cert-manager, and cert-manager.yaml: the local CA santa-local-ca) is
# installed cluster-wide like Traefik and KEDA, and left in place; the chart's Ingress asks it
# for gateway-tls (deploy/cluster/values.yaml), an Ingress of this test's own for the Auth
# emulator's host. Then what the issue asks to be shown is printed and checked: plain HTTP
# redirected, the certificate chain from the local CA, HSTS on an HTTPS answer, and what must be
# refused (a client without the CA, another name, an expired certificate). Uses k8s-test.sh's
# HERE, NS, NODE_IP, RESULTS, log and fail.

INGRESS_HOST=santa.localtest AUTH_HOST=auth.santa.localtest
INGRESS_PORT=30443 INGRESS_HTTP_PORT=30081 # ingress.yaml's node ports: HTTPS, HTTP
TLS_CA=$RESULTS/santa-local-ca.crt
INGRESS_URL=https://$INGRESS_HOST
# Through the ingress: the host names resolved to the node's port, as DNS and a load balancer
# would, trusting the local CA.
ingress_curl() {
  curl --cacert "$TLS_CA" --connect-to "$INGRESS_HOST:443:$NODE_IP:$INGRESS_PORT" \
    --connect-to "$AUTH_HOST:443:$NODE_IP:$INGRESS_PORT" "$@"
}
# The browser test's push service listens on this machine (web/e2e/support/pushService.ts):
# notification may reach it (its egress, PUSH_ALLOW), as the test stack lets it reach 127.0.0.4.
PUSH_ADDR=$NODE_IP:18088
TLS_SET=(--set-json "services.notification.extraEgress.push={\"to\": [{\"ipBlock\": {\"cidr\": \"$NODE_IP/32\"}}], \"ports\": [{\"protocol\": \"TCP\", \"port\": 18088}]}")

# tls_install: the controller's image, the CRDs, the controller and the local CA, Ready; the
# CA's certificate saved to $TLS_CA (what a browser of this machine is told to trust).
tls_install() {
  local tag crd
  tag=$("$HERE/images.sh" cert-manager | tail -1) || { fail "the cert-manager image"; return 1; }
  log "HTTPS: cert-manager $CERT_MANAGER_VERSION (our controller, image tag $tag), ClusterIssuer santa-local-ca"
  # Server-side: the Certificate CRD is too large for client-side apply's annotation.
  kubectl apply --server-side --force-conflicts -f "$HERE/cert-manager-crds.yaml" >/dev/null || { fail "cert-manager-crds.yaml"; return 1; }
  for crd in certificates certificaterequests issuers clusterissuers; do
    kubectl wait --for=condition=Established "crd/$crd.cert-manager.io" --timeout 60s >/dev/null ||
      { fail "the CRD $crd.cert-manager.io is not Established"; return 1; }
  done
  sed "s|@VERSION@|$tag|g" "$HERE/cert-manager.yaml" | kubectl apply -f - >/dev/null || { fail "cert-manager.yaml"; return 1; }
  kubectl -n cert-manager rollout status deployment/cert-manager-controller --timeout 180s >/dev/null ||
    { fail "the cert-manager controller did not become ready"; kubectl -n cert-manager logs deployment/cert-manager-controller --tail 30; return 1; }
  kubectl wait --for=condition=Ready clusterissuer/santa-local-ca --timeout 180s >/dev/null ||
    { fail "ClusterIssuer santa-local-ca is not Ready"; kubectl describe clusterissuer santa-local-ca | tail -15;
      kubectl -n cert-manager logs deployment/cert-manager-controller --tail 30; return 1; }
  kubectl -n cert-manager get secret santa-local-ca -o jsonpath='{.data.ca\.crt}' | base64 -d > "$TLS_CA"
  openssl x509 -in "$TLS_CA" -noout -subject -issuer -enddate | sed 's/^/  local CA: /'
  grep -q 'BEGIN CERTIFICATE' "$TLS_CA" || { fail "no CA certificate in santa-local-ca's Secret"; return 1; }
}

# tls_after_install: the Auth emulator's own HTTPS route (its public URL, values.yaml), the
# test-only allowances of the push service, and both certificates issued.
tls_after_install() {
  kubectl -n "$NS" set env deployment/notification PUSH_ALLOW="$PUSH_ADDR" >/dev/null
  # The emulator's NetworkPolicy admits only the services that use it; Traefik's pods are
  # admitted here, for this test's route only (the chart has no Ingress for a development tool).
  kubectl -n "$NS" apply -f - >/dev/null <<EOF || fail "the Auth emulator's Ingress"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: k8s-test-auth-emulator
  annotations: {cert-manager.io/cluster-issuer: santa-local-ca}
spec:
  ingressClassName: traefik
  tls: [{secretName: auth-emulator-tls, hosts: [$AUTH_HOST]}]
  rules:
  - host: $AUTH_HOST
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: firebase-auth-emulator, port: {number: 9099}}}}]}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: k8s-test-auth-emulator-from-ingress}
spec:
  podSelector: {matchLabels: {app.kubernetes.io/name: firebase-auth-emulator}}
  policyTypes: [Ingress]
  ingress:
  - from: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ingress}}, podSelector: {matchLabels: {app.kubernetes.io/name: traefik}}}]
    ports: [{protocol: TCP, port: 9099}]
EOF
  local cert
  for cert in gateway-tls auth-emulator-tls; do
    # ingress-shim makes the Certificate a moment after the Ingress; wait cannot wait for it.
    for _ in $(seq 60); do kubectl -n "$NS" get certificate "$cert" >/dev/null 2>&1 && break; sleep 1; done
    if kubectl -n "$NS" wait --for=condition=Ready "certificate/$cert" --timeout 180s >/dev/null; then
      kubectl -n "$NS" get certificate "$cert" -o jsonpath='  certificate {.metadata.name}: Ready, {.spec.dnsNames}, until {.status.notAfter}{"\n"}'
    else
      fail "certificate/$cert is not Ready"; kubectl -n "$NS" describe certificate "$cert" | tail -15
    fi
  done
}

# tls_checks: what the issue asks to be shown, printed, each checked.
tls_checks() {
  local out code other
  log "HTTPS at the ingress: plain HTTP redirected, the chain from the local CA, HSTS, and what is refused"
  # Plain HTTP: a permanent redirect to the same URL on https (Traefik: 301 to a GET, 308 else).
  out=$(curl -sv -o /dev/null --connect-to "$INGRESS_HOST:80:$NODE_IP:$INGRESS_HTTP_PORT" "http://$INGRESS_HOST/" 2>&1)
  grep -E '^(> GET|< HTTP|< Location)' <<<"$out" | sed 's/^/  http: /'
  grep -qE '^< HTTP/1.1 301' <<<"$out" && grep -qiE "^< Location: https://$INGRESS_HOST/\s*$" <<<"$out" ||
    fail "plain HTTP was not redirected permanently to https://$INGRESS_HOST/"
  code=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -X POST --connect-to "$INGRESS_HOST:80:$NODE_IP:$INGRESS_HTTP_PORT" "http://$INGRESS_HOST/api/lists")
  echo "  http: POST /api/lists -> $code"
  [ "$code" = "308 https://$INGRESS_HOST/api/lists" ] || fail "a POST over plain HTTP got $code, want 308 to https"
  # The chain the ingress presents, verified against the local CA only.
  out=$(openssl s_client -connect "$NODE_IP:$INGRESS_PORT" -servername "$INGRESS_HOST" -verify_hostname "$INGRESS_HOST" \
    -CAfile "$TLS_CA" -showcerts </dev/null 2>&1)
  grep -E '^ *[0-9]+ s:|^ +i:|Verify return code' <<<"$out" | sed 's/^ */  chain: /'
  grep -q 'Verify return code: 0 (ok)' <<<"$out" && grep -qE '^ +i:.*CN ?= ?Santa Wishlist local CA' <<<"$out" ||
    fail "the ingress's certificate for $INGRESS_HOST is not verified by the local CA"
  out=$(ingress_curl -sSv -o /dev/null "$INGRESS_URL/" 2>&1)
  grep -E '(subject|issuer|subjectAltName|expire date):|SSL certificate verify' <<<"$out" | sed 's/^\* */  curl: /'
  # HSTS: the gateway's, on an answer that came over HTTPS.
  out=$(ingress_curl -sS -D - -o /dev/null "$INGRESS_URL/api/config" | tr -d '\r')
  grep -i '^strict-transport-security:' <<<"$out" | sed 's/^/  https: /'
  grep -qiE '^strict-transport-security: max-age=[1-9]' <<<"$out" || fail "no Strict-Transport-Security on an HTTPS answer"
  # A client that does not trust the local CA is refused (curl's 60: not verified).
  code=0; out=$(curl -sS -o /dev/null --connect-to "$INGRESS_HOST:443:$NODE_IP:$INGRESS_PORT" "$INGRESS_URL/" 2>&1) || code=$?
  out=${out%%$'\n'*} # curl's first line of the error
  echo "  without the CA: exit $code: $out"
  [ "$code" = 60 ] || fail "a client without the local CA got exit $code, want 60 (certificate not trusted)"
  # Another name: the real certificate checked for it (hostname mismatch), and a request for it
  # (Traefik has no certificate of the CA for it) both refused.
  out=$(openssl s_client -connect "$NODE_IP:$INGRESS_PORT" -servername "$INGRESS_HOST" -verify_hostname elsewhere.localtest \
    -CAfile "$TLS_CA" </dev/null 2>&1 | grep 'Verify return code')
  echo "  $INGRESS_HOST's certificate for elsewhere.localtest: $out"
  grep -q 'Verify return code: 62' <<<"$out" || fail "the certificate was accepted for another name"
  code=0; out=$(curl -sS -o /dev/null --cacert "$TLS_CA" --connect-to "elsewhere.localtest:443:$NODE_IP:$INGRESS_PORT" https://elsewhere.localtest/ 2>&1) || code=$?
  out=${out%%$'\n'*}
  echo "  https://elsewhere.localtest with the CA: exit $code: $out"
  [ "$code" = 60 ] || fail "https://elsewhere.localtest got exit $code, want 60 (no certificate of the CA)"
  # Expired: the same chain verified a year on, past the leaf's notAfter (cert-manager: 90 days).
  out=$(openssl s_client -connect "$NODE_IP:$INGRESS_PORT" -servername "$INGRESS_HOST" -CAfile "$TLS_CA" \
    -attime "$(date -d '+1 year' +%s)" </dev/null 2>&1 | grep 'Verify return code')
  echo "  the same certificate a year from now: $out"
  grep -q 'Verify return code: 10' <<<"$out" || fail "an expired certificate was not refused"
  # A request for another host gets Traefik's 404: the route is the Ingress's host, not a
  # catch-all (-k: no certificate is meant to exist for that name, the routing is what is seen).
  other=$(curl -sk -o /dev/null -w '%{http_code}' --connect-to "elsewhere.localtest:443:$NODE_IP:$INGRESS_PORT" https://elsewhere.localtest/api/config)
  printf '  through the ingress: %s -> the app; https://elsewhere.localtest -> %s\n' "$INGRESS_URL" "$other"
  [ "$other" = 404 ] || fail "the ingress answered another host with $other, want 404"
  # The Auth emulator's route, as the browser will use it: an account made through it.
  code=$(ingress_curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    "https://$AUTH_HOST/identitytoolkit.googleapis.com/v1/accounts:signUp?key=tls-check" \
    -d "{\"email\":\"tls-$RANDOM$RANDOM@example.com\",\"password\":\"secret123\",\"returnSecureToken\":true}")
  echo "  https://$AUTH_HOST (the Auth emulator through the ingress): sign-up -> $code"
  [ "$code" = 200 ] || fail "the Auth emulator through the ingress answered a sign-up with $code"
}

# tls_browser_env: Chromium trusting the local CA through an NSS database in a home of its own
# (Chromium on Linux reads ~/.pki/nssdb; playwright.config.ts launches it with
# HOME=E2E_BROWSER_HOME), and Node's calls trusting it (NODE_EXTRA_CA_CERTS).
tls_browser_env() {
  local home=$RESULTS/chromium-home
  command -v certutil >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnss3-tools >/dev/null; }
  rm -rf "$home" && mkdir -p "$home/.pki/nssdb" &&
    certutil -d "sql:$home/.pki/nssdb" -N --empty-password &&
    certutil -d "sql:$home/.pki/nssdb" -A -t C,, -n santa-local-ca -i "$TLS_CA" || { fail "the NSS database for Chromium"; return 1; }
  certutil -d "sql:$home/.pki/nssdb" -L | sed -n '/santa-local-ca/s/^/  Chromium trusts: /p'
  export E2E_BROWSER_HOME=$home NODE_EXTRA_CA_CERTS=$TLS_CA E2E_PUSH_ADDR=$PUSH_ADDR
  export E2E_HOST_MAP="$INGRESS_HOST=$NODE_IP:$INGRESS_PORT,$AUTH_HOST=$NODE_IP:$INGRESS_PORT"
}
