{{/*
Shared helpers. Most take a dict: root (the top-level context) and name (a component such as
"gateway" or "postgresql").
*/}}

{{/* Object name of a component: namePrefix + name. */}}
{{- define "santa.name" -}}
{{- printf "%s%s" .root.Values.namePrefix .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "santa.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{/* dict: root, name, component ("service" or "dependency") */}}
{{- define "santa.labels" -}}
{{ include "santa.selectorLabels" . }}
app.kubernetes.io/component: {{ .component }}
app.kubernetes.io/part-of: santa-wishlist
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end -}}

{{/*
Reference of an image built from this repository. dict: root, image ({repository, tag, digest}).
registry and tag fall back to .Values.image; the digest, when given, pins the image.
*/}}
{{- define "santa.image" -}}
{{- $repo := .image.repository -}}
{{- with .root.Values.image.registry }}{{ $repo = printf "%s/%s" (trimSuffix "/" .) $repo }}{{ end -}}
{{- $ref := printf "%s:%s" $repo (.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion) -}}
{{- with .image.digest }}{{ $ref = printf "%s@%s" $ref . }}{{ end -}}
{{- $ref -}}
{{- end -}}

{{- define "santa.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "santa.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* The Secret of credentials given through .Values.secrets, unless existingSecret is used. */}}
{{- define "santa.appSecretName" -}}
{{- .Values.secrets.existingSecret | default (include "santa.name" (dict "root" . "name" "app-secrets")) -}}
{{- end -}}

{{/*
A password for an in-chart dependency: the value given, else the one already stored in the
release's Secret (so upgrades keep it), else a new random one. Base64, for a Secret's data.
dict: root, secret (name), key, value.
*/}}
{{- define "santa.password" -}}
{{- if .value -}}
{{- .value | b64enc -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" .root.Release.Namespace .secret -}}
{{- if and $existing $existing.data (hasKey $existing.data .key) -}}
{{- index $existing.data .key -}}
{{- else -}}
{{- randAlphaNum 32 | b64enc -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
Identity keys: an Ed25519 key for each service that calls others (the
gateway, and every service with `calls`), which signs the identity assertion of its calls.
Made at install, kept across upgrades in the release's Secret <name>-identity-keys, and
computed once per render (cached in .Values) so that every object agrees. Takes the root;
returns YAML {<service>: {key: <base64 PKCS #8>, cert: <base64 DER certificate>}}.
*/}}
{{- define "santa.identityKeys" -}}
{{- $root := . -}}
{{- if not (hasKey $root.Values "_identityKeys") -}}
{{- $name := include "santa.name" (dict "root" $root "name" "identity-keys") -}}
{{- $existing := lookup "v1" "Secret" $root.Release.Namespace $name -}}
{{- $keys := dict -}}
{{- range $svcName, $svc := $root.Values.services -}}
{{- if or (eq $svcName "gateway") $svc.calls -}}
{{- $keyName := printf "%s-key" $svcName -}}
{{- $certName := printf "%s-cert" $svcName -}}
{{- if and $existing $existing.data (hasKey $existing.data $keyName) (hasKey $existing.data $certName) -}}
{{- $_ := set $keys $svcName (dict "key" (index $existing.data $keyName | b64dec) "cert" (index $existing.data $certName | b64dec)) -}}
{{- else -}}
{{- $pem := genPrivateKey "ed25519" -}}
{{- $cert := genSelfSignedCertWithKey $svcName nil nil 36500 $pem -}}
{{- $_ := set $keys $svcName (dict "key" (regexReplaceAll "-----[A-Z ]+-----" $pem "" | nospace) "cert" (regexReplaceAll "-----[A-Z ]+-----" $cert.Cert "" | nospace)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $_ := set $root.Values "_identityKeys" $keys -}}
{{- end -}}
{{- toYaml (index $root.Values "_identityKeys") -}}
{{- end -}}

{{/* The photo address secret (MEDIA_URL_SECRET): wishlist and vision sign photo
addresses with it, media checks them. Generated once, kept in the identity Secret across
upgrades (memoised like the keys, so one render uses one value). */}}
{{- define "santa.mediaUrlSecret" -}}
{{- $root := . -}}
{{- if not (hasKey $root.Values "_mediaUrlSecret") -}}
{{- $existing := lookup "v1" "Secret" $root.Release.Namespace (include "santa.name" (dict "root" $root "name" "identity-keys")) -}}
{{- $secret := randAlphaNum 48 -}}
{{- if and $existing $existing.data (hasKey $existing.data "media-url-secret") -}}
{{- $secret = index $existing.data "media-url-secret" | b64dec -}}
{{- end -}}
{{- $_ := set $root.Values "_mediaUrlSecret" $secret -}}
{{- end -}}
{{- index $root.Values "_mediaUrlSecret" -}}
{{- end -}}

{{/* The Web Push (VAPID) key of notification (VAPID_PRIVATE_KEY): a P-256 key made once,
kept in the identity Secret across upgrades (a new key would void every device's
subscription), armour stripped like the identity keys; notification derives the public key. */}}
{{- define "santa.vapidKey" -}}
{{- $root := . -}}
{{- if not (hasKey $root.Values "_vapidKey") -}}
{{- $existing := lookup "v1" "Secret" $root.Release.Namespace (include "santa.name" (dict "root" $root "name" "identity-keys")) -}}
{{- $key := "" -}}
{{- if and $existing $existing.data (hasKey $existing.data "vapid-key") -}}
{{- $key = index $existing.data "vapid-key" | b64dec -}}
{{- else -}}
{{- $key = regexReplaceAll "-----[A-Z ]+-----" (genPrivateKey "ecdsa") "" | nospace -}}
{{- end -}}
{{- $_ := set $root.Values "_vapidKey" $key -}}
{{- end -}}
{{- index $root.Values "_vapidKey" -}}
{{- end -}}

{{/* The in-chart NATS's configuration: a user per service with its permissions, and for a
JetStream cluster the routes to the other servers. dict: users ({name: {pub, sub}}), passwords
({name: base64}), cluster ({routes: [host:port], password: base64}, empty for one server). */}}
{{- define "santa.natsConfig" -}}
authorization {
  users: [
    {{- range $user, $perm := .users }}
    { user: {{ $user }}, password: "{{ index $.passwords $user | b64dec }}",
      permissions: { publish: [{{ range $i, $s := $perm.pub }}{{ if $i }}, {{ end }}"{{ $s }}"{{ end }}], subscribe: [{{ range $i, $s := $perm.sub }}{{ if $i }}, {{ end }}"{{ $s }}"{{ end }}] } }
    {{- end }}
  ]
}
{{- with .cluster }}
cluster {
  name: santa
  listen: 0.0.0.0:6222
  authorization { user: route, password: "{{ .password | b64dec }}" }
  routes: [{{ range $i, $r := .routes }}{{ if $i }}, {{ end }}"nats://route:{{ $.cluster.password | b64dec }}@{{ $r }}"{{ end }}]
}
{{- end }}
{{ end -}}

{{/* Pod-selector peer of a component. dict: root, name */}}
{{- define "santa.peer" -}}
- podSelector:
    matchLabels:
      {{- include "santa.selectorLabels" . | nindent 6 }}
{{- end -}}

{{/* Egress rule to the cluster DNS. */}}
{{- define "santa.dnsEgress" -}}
- to:
    - namespaceSelector:
        {{- toYaml .Values.networkPolicy.dns.namespaceSelector | nindent 8 }}
      podSelector:
        {{- toYaml .Values.networkPolicy.dns.podSelector | nindent 8 }}
  ports:
    - {protocol: UDP, port: 53}
    - {protocol: TCP, port: 53}
{{- end -}}

{{/*
Where a backing service is and which port it listens on: the in-chart pod, or the peers given
for the external one. dict: root, dep (postgresql, redis, nats, minio). Empty when an external
one has no peers (then no egress is allowed to it: give external.peers).
*/}}
{{- define "santa.dependencyEgress" -}}
{{- $cfg := index .root.Values .dep -}}
{{- if $cfg.enabled -}}
- to:
    {{- include "santa.peer" (dict "root" .root "name" .dep) | nindent 4 }}
  ports:
    - {protocol: TCP, port: {{ include "santa.dependencyPort" .dep }}}
{{- else if $cfg.external.peers -}}
- to:
    {{- toYaml $cfg.external.peers | nindent 4 }}
  ports:
    - {protocol: TCP, port: {{ $cfg.external.port }}}
{{- end -}}
{{- end -}}

{{- define "santa.dependencyPort" -}}
{{- get (dict "postgresql" "5432" "redis" "6379" "nats" "4222" "minio" "9000" "authEmulator" "9099") . -}}
{{- end -}}

{{/* Egress rule for HTTPS to the internet (Gemini, Google's token keys). */}}
{{/* Internet egress for the one service that fetches product data and shop pages (vision):
HTTP and HTTPS to the same addresses as santa.httpsEgress. The service itself refuses private
addresses at dial time too; this is the network's second line. */}}
{{- define "santa.internetEgress" -}}
- to:
    - ipBlock:
        cidr: {{ .Values.networkPolicy.internetHttps.cidr }}
        {{- with .Values.networkPolicy.internetHttps.except }}
        except:
          {{- toYaml . | nindent 10 }}
        {{- end }}
  ports:
    - {protocol: TCP, port: 80}
    - {protocol: TCP, port: 443}
{{- end -}}

{{- define "santa.httpsEgress" -}}
- to:
    - ipBlock:
        cidr: {{ .Values.networkPolicy.internetHttps.cidr }}
        {{- with .Values.networkPolicy.internetHttps.except }}
        except:
          {{- toYaml . | nindent 10 }}
        {{- end }}
  ports:
    - {protocol: TCP, port: 443}
{{- end -}}

{{/*
A memory quantity in whole MiB: "256Mi", "1Gi", "512M", "1G", "131072Ki" or bytes. Fails on
forms it cannot read (such as "1.5Gi"), rather than guessing.
*/}}
{{- define "santa.memoryMiB" -}}
{{- $q := toString . -}}
{{- $mib := 0 -}}
{{- if hasSuffix "Gi" $q -}}{{- $mib = mul (trimSuffix "Gi" $q | atoi) 1024 -}}
{{- else if hasSuffix "Mi" $q -}}{{- $mib = trimSuffix "Mi" $q | atoi -}}
{{- else if hasSuffix "Ki" $q -}}{{- $mib = div (trimSuffix "Ki" $q | atoi) 1024 -}}
{{- else if hasSuffix "G" $q -}}{{- $mib = div (mul (trimSuffix "G" $q | atoi) 1000000000) 1048576 -}}
{{- else if hasSuffix "M" $q -}}{{- $mib = div (mul (trimSuffix "M" $q | atoi) 1000000) 1048576 -}}
{{- else -}}{{- $mib = div (atoi $q) 1048576 -}}
{{- end -}}
{{- if lt (int $mib) 16 -}}
{{- fail (printf "memory limit %q: give at least 16Mi as a whole number of Ki, Mi, Gi, M or G" $q) -}}
{{- end -}}
{{- $mib -}}
{{- end -}}

{{/*
How the Firebase Admin SDK gets its Google identity (firebase.credentials), for the services
that use Firebase: "workloadIdentity" (annotations on their ServiceAccounts), "key" (a service
account key from a Secret, mounted as a file), or "" (none: the Auth emulator, or a demo-
project, which only the emulator knows). Checking ID tokens needs only the project id, but
reading a user's email address (notification) and deleting a closed account's user (gateway)
are Admin API calls made as some Google identity, which the SDK finds as Application Default
Credentials. Left to the operator to discover, it shows only as unsent emails and undeleted
users; so a real project without the emulator needs exactly one way, named here, and two are
refused too (the key file would silently win over the workload identity).
*/}}
{{- define "santa.firebaseCredentials" -}}
{{- $v := .Values -}}
{{- $c := $v.firebase.credentials -}}
{{- if and $c.serviceAccountAnnotations $c.existingSecret -}}
{{- fail "firebase.credentials: give the Admin SDK one identity, not two: either serviceAccountAnnotations (a workload identity) or existingSecret with key (a mounted service account key); leave the other empty" -}}
{{- else if $c.serviceAccountAnnotations -}}
workloadIdentity
{{- else if $c.existingSecret -}}
key
{{- else if not (or $v.authEmulator.enabled (hasPrefix "demo-" $v.firebase.projectId)) -}}
{{- fail (printf "firebase.projectId is %q and authEmulator.enabled is false: gateway and notification need a Google identity for the Firebase Admin SDK (deleting users, reading their email addresses). Set firebase.credentials.serviceAccountAnnotations (a workload identity, e.g. iam.gke.io/gcp-service-account: NAME@PROJECT.iam.gserviceaccount.com) or firebase.credentials.existingSecret and firebase.credentials.key (a service account key in a Secret); docs/kubernetes.md says how" $v.firebase.projectId) -}}
{{- end -}}
{{- end -}}
