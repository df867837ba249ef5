{{/*
Pieces of a service's objects, used by services.yaml. All take dict: root, name, svc.
*/}}

{{/*
The plain settings of a service, as a YAML map for its ConfigMap: what docs/conventions.md
lists for it, decided by its `uses` and `calls`, then its own `env` on top. The local stacks
render the same variables by the same rules (deploy/local/serviceenv, with secretEnv's below),
and deploy/chartcheck fails when the two differ: a rule changed here changes there too.
*/}}
{{- define "santa.service.config" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $svc := .svc -}}
{{- $cfg := dict
  "PORT" "8080"
  "ADMIN_PORT" "9090"
  "LOG_LEVEL" $v.config.logLevel
  "SHUTDOWN_TIMEOUT" (printf "%ds" (int $v.config.shutdownTimeoutSeconds)) -}}
{{- /* Go's soft memory limit at 90% of the container's, so the GC works harder before the
kernel's OOM killer would step in. */ -}}
{{- $memMiB := include "santa.memoryMiB" $svc.resources.limits.memory | int -}}
{{- $_ := set $cfg "GOMEMLIMIT" (printf "%dMiB" (div (mul $memMiB 9) 10)) -}}
{{- range $svc.calls -}}
{{- $_ := set $cfg (printf "%s_URL" (upper .)) (printf "http://%s:80" (include "santa.name" (dict "root" $root "name" .))) -}}
{{- end -}}
{{- if has "redis" $svc.uses -}}
{{- if $v.redis.enabled -}}
{{- /* with the password: set from the Secret in santa.service.secretEnv */ -}}
{{- else -}}
{{- $_ := set $cfg "REDIS_URL" (required (printf "%s uses Redis and redis.enabled is false: set redis.external.url" .name) $v.redis.external.url) -}}
{{- end -}}
{{- end -}}
{{- if has "nats" $svc.uses -}}
{{- if $v.nats.enabled -}}
{{- /* with the service's own user and password: set from the Secret in santa.service.secretEnv */ -}}
{{- else -}}
{{- $_ := set $cfg "NATS_URL" (required (printf "%s uses NATS and nats.enabled is false: set nats.external.url" .name) $v.nats.external.url) -}}
{{- end -}}
{{- with $v.nats.namespace }}{{ $_ := set $cfg "EVENTS_NAMESPACE" . }}{{ end -}}
{{- $streamReplicas := int (ternary $v.nats.replicas $v.nats.external.streamReplicas $v.nats.enabled) -}}
{{- if gt $streamReplicas 1 }}{{ $_ := set $cfg "EVENTS_REPLICAS" (toString $streamReplicas) }}{{ end -}}
{{- end -}}
{{- if has "minio" $svc.uses -}}
{{- $_ := set $cfg "MINIO_BUCKET" $v.minio.bucket -}}
{{- if $v.minio.enabled -}}
{{- $_ := set $cfg "MINIO_ENDPOINT" (printf "%s:9000" (include "santa.name" (dict "root" $root "name" "minio"))) -}}
{{- $_ := set $cfg "MINIO_USE_SSL" "false" -}}
{{- else -}}
{{- $_ := set $cfg "MINIO_ENDPOINT" (required (printf "%s uses MinIO and minio.enabled is false: set minio.external.endpoint" .name) $v.minio.external.endpoint) -}}
{{- $_ := set $cfg "MINIO_USE_SSL" (toString $v.minio.external.useSSL) -}}
{{- end -}}
{{- end -}}
{{- if has "gemini" $svc.uses -}}
{{- with $v.gemini.model }}{{ $_ := set $cfg "GEMINI_MODEL" . }}{{ end -}}
{{- with $v.gemini.baseUrl }}{{ $_ := set $cfg "GEMINI_BASE_URL" . }}{{ end -}}
{{- end -}}
{{- if has "firebase" $svc.uses -}}
{{- $_ := set $cfg "FIREBASE_PROJECT_ID" (required "firebase.projectId is required" $v.firebase.projectId) -}}
{{- /* The mounted key (services.yaml mounts it); a workload identity needs no setting. */ -}}
{{- if eq (include "santa.firebaseCredentials" $root) "key" -}}
{{- $_ := set $cfg "GOOGLE_APPLICATION_CREDENTIALS" (printf "/var/run/secrets/google/%s" $v.firebase.credentials.key) -}}
{{- end -}}
{{- /* The web app's Firebase config is the gateway's to hand out (notification only reads user records). */ -}}
{{- if eq .name "gateway" -}}
{{- with $v.firebase.webApiKey }}{{ $_ := set $cfg "FIREBASE_WEB_API_KEY" . }}{{ end -}}
{{- with $v.firebase.authDomain }}{{ $_ := set $cfg "FIREBASE_AUTH_DOMAIN" . }}{{ end -}}
{{- end -}}
{{- if $v.authEmulator.enabled -}}
{{- $_ := set $cfg "FIREBASE_AUTH_EMULATOR_HOST" (printf "%s:9099" (include "santa.name" (dict "root" $root "name" "firebase-auth-emulator"))) -}}
{{- $_ := set $cfg "ALLOW_AUTH_EMULATOR" "true" -}}
{{- if eq .name "gateway" -}}
{{- $_ := set $cfg "AUTH_EMULATOR_PUBLIC_URL" $v.authEmulator.publicUrl -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- /* Whose identity assertions the service accepts: the gateway's, and those of the
services that call it (their certificates; the keys stay in the identity Secret). */ -}}
{{- if ne .name "gateway" -}}
{{- $keys := include "santa.identityKeys" $root | fromYaml -}}
{{- $trusted := list -}}
{{- range $caller, $k := $keys -}}
{{- if or (eq $caller "gateway") (has $.name (index $v.services $caller).calls) -}}
{{- $trusted = append $trusted (printf "%s=%s" $caller $k.cert) -}}
{{- end -}}
{{- end -}}
{{- $_ := set $cfg "IDENTITY_PUBLIC_KEYS" (join "," $trusted) -}}
{{- end -}}
{{- if and (has "smtp" $svc.uses) (or $v.smtp.enabled $v.smtp.mailpit.enabled) -}}
{{- if $v.smtp.mailpit.enabled -}}
{{- /* Mailpit takes no credentials, so its URL is a plain setting. */ -}}
{{- $_ := set $cfg "SMTP_URL" (printf "smtp://%s:1025" (include "santa.name" (dict "root" $root "name" "mailpit"))) -}}
{{- end -}}
{{- with $v.smtp.from }}{{ $_ := set $cfg "MAIL_FROM" . }}{{ end -}}
{{- if $v.smtp.publicUrl -}}
{{- $_ := set $cfg "PUBLIC_URL" $v.smtp.publicUrl -}}
{{- else if and $v.ingress.enabled $v.ingress.host -}}
{{- $_ := set $cfg "PUBLIC_URL" (printf "https://%s" $v.ingress.host) -}}
{{- end -}}
{{- end -}}
{{- range $key, $value := $svc.env -}}
{{- $_ := set $cfg $key $value -}}
{{- end -}}
{{- toYaml $cfg -}}
{{- end -}}

{{/*
Environment taken from Secrets: credentials never go into the ConfigMap. An in-chart
dependency's own credentials win, because that server accepts no others; otherwise they come
from secrets.existingSecret or the Secret made from secrets.*.
*/}}
{{- define "santa.service.secretEnv" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $svc := .svc -}}
{{- $appSecret := include "santa.appSecretName" $root -}}
{{- if has "postgresql" $svc.uses }}
{{- if $v.postgresql.enabled }}
# Kubernetes expands $(DATABASE_PASSWORD) from the variable above it; no password is written here.
- name: DATABASE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "santa.name" (dict "root" $root "name" "postgresql") }}
      key: password
- name: DATABASE_URL
  value: {{ printf "postgres://%s:$(DATABASE_PASSWORD)@%s:5432/%s?sslmode=disable" $v.postgresql.username (include "santa.name" (dict "root" $root "name" "postgresql")) $v.postgresql.database | quote }}
{{- else if or $v.secrets.existingSecret $v.secrets.databaseUrl }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $appSecret }}
      key: DATABASE_URL
{{- else }}
{{- fail (printf "%s uses PostgreSQL and postgresql.enabled is false: give DATABASE_URL through secrets.existingSecret or secrets.databaseUrl" .name) }}
{{- end }}
{{- end }}
{{- if and (has "nats" $svc.uses) $v.nats.enabled }}
# The service's own NATS user (permissions per subject in the NATS config).
- name: NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "santa.name" (dict "root" $root "name" "nats") }}
      key: {{ .name }}
- name: NATS_URL
  value: {{ printf "nats://%s:$(NATS_PASSWORD)@%s:4222" .name (include "santa.name" (dict "root" $root "name" "nats")) | quote }}
{{- end }}
{{- if and (has "redis" $svc.uses) $v.redis.enabled }}
# Kubernetes expands $(REDIS_PASSWORD) from the variable above it; no password is written here.
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "santa.name" (dict "root" $root "name" "redis") }}
      key: password
- name: REDIS_URL
  value: {{ printf "redis://:$(REDIS_PASSWORD)@%s:6379/0" (include "santa.name" (dict "root" $root "name" "redis")) | quote }}
{{- end }}
{{- if has "minio" $svc.uses }}
{{- if $v.minio.enabled }}
- name: MINIO_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "santa.name" (dict "root" $root "name" "minio") }}
      key: root-user
- name: MINIO_SECRET_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "santa.name" (dict "root" $root "name" "minio") }}
      key: root-password
{{- else if or $v.secrets.existingSecret (and $v.secrets.minioAccessKey $v.secrets.minioSecretKey) }}
- name: MINIO_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $appSecret }}
      key: MINIO_ACCESS_KEY
- name: MINIO_SECRET_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $appSecret }}
      key: MINIO_SECRET_KEY
{{- else }}
{{- fail (printf "%s uses MinIO and minio.enabled is false: give MINIO_ACCESS_KEY and MINIO_SECRET_KEY through secrets.existingSecret or secrets.minioAccessKey/minioSecretKey" .name) }}
{{- end }}
{{- end }}
{{- if or (eq .name "gateway") $svc.calls }}
# Signs the identity assertion of every call this service makes (pkg/auth).
- name: IDENTITY_SIGNING_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "santa.name" (dict "root" $root "name" "identity-keys") }}
      key: {{ .name }}-key
{{- end }}
{{- if or (eq .name "media") (and (has "media" $svc.calls) (ne .name "gateway")) }}
# Signs (wishlist, vision) or checks (media) the photo addresses (pkg/mediaurl); the gateway
# only forwards them and does without.
- name: MEDIA_URL_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "santa.name" (dict "root" $root "name" "identity-keys") }}
      key: media-url-secret
{{- end }}
{{- if has "webpush" $svc.uses }}
# Signs the Web Push requests (VAPID, RFC 8292).
- name: VAPID_PRIVATE_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "santa.name" (dict "root" $root "name" "identity-keys") }}
      key: vapid-key
{{- end }}
{{- if and (has "smtp" $svc.uses) $v.smtp.enabled (not $v.smtp.mailpit.enabled) }}
{{- if or $v.secrets.existingSecret $v.secrets.smtpUrl }}
- name: SMTP_URL
  valueFrom:
    secretKeyRef:
      name: {{ $appSecret }}
      key: SMTP_URL
{{- else }}
{{- fail (printf "%s uses SMTP and smtp.enabled is true: give SMTP_URL through secrets.existingSecret or secrets.smtpUrl" .name) }}
{{- end }}
{{- end }}
{{- if and (has "gemini" $svc.uses) (or $v.secrets.existingSecret $v.secrets.geminiApiKey) }}
- name: GEMINI_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $appSecret }}
      key: GEMINI_API_KEY
      # Without a key the service answers the fallback item, so a Secret without it is fine.
      optional: true
{{- end }}
{{- end -}}

{{/* Egress of a service: DNS, the services it calls, what it uses. */}}
{{- define "santa.service.egress" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- include "santa.dnsEgress" $root }}
{{- range .svc.calls }}
- to:
    {{- include "santa.peer" (dict "root" $root "name" .) | nindent 4 }}
  ports:
    - {protocol: TCP, port: 8080}
{{- end }}
{{- range $dep := list "postgresql" "redis" "nats" "minio" }}
{{- if has $dep $.svc.uses }}
{{- with include "santa.dependencyEgress" (dict "root" $root "dep" $dep) }}
{{ . }}
{{- end }}
{{- end }}
{{- end }}
{{- if has "smtp" .svc.uses }}
{{- if $v.smtp.mailpit.enabled }}
- to:
    {{- include "santa.peer" (dict "root" $root "name" "mailpit") | nindent 4 }}
  ports:
    - {protocol: TCP, port: 1025}
{{- else if $v.smtp.enabled }}
{{- /* The SMTP server: its peers, or (a mail provider) addresses outside the private ranges. */}}
- to:
    {{- if $v.smtp.external.peers }}
    {{- toYaml $v.smtp.external.peers | nindent 4 }}
    {{- else }}
    - ipBlock:
        cidr: {{ $v.networkPolicy.internetHttps.cidr }}
        {{- with $v.networkPolicy.internetHttps.except }}
        except:
          {{- toYaml . | nindent 10 }}
        {{- end }}
    {{- end }}
  ports:
    - {protocol: TCP, port: {{ $v.smtp.external.port }}}
{{- end }}
{{- end }}
{{- if has "internet" .svc.uses }}
{{ include "santa.internetEgress" $root }}
{{- else if or (has "gemini" .svc.uses) (has "firebase" .svc.uses) (has "webpush" .svc.uses) }}
{{ include "santa.httpsEgress" $root }}
{{- end }}
{{- if and (has "firebase" .svc.uses) (eq (include "santa.firebaseCredentials" $root) "workloadIdentity") }}
{{- /* The workload identity's tokens come from the node's metadata server, at a link-local
address that networkPolicy.internetHttps excepts (firebase.credentials.workloadIdentityEgress). */}}
{{- range $name, $rule := $v.firebase.credentials.workloadIdentityEgress }}
{{- if $rule }}
- {{ toYaml $rule | nindent 2 | trim }}
{{- end }}
{{- end }}
{{- end }}
{{- if and (has "firebase" .svc.uses) $v.authEmulator.enabled }}
- to:
    {{- include "santa.peer" (dict "root" $root "name" "firebase-auth-emulator") | nindent 4 }}
  ports:
    - {protocol: TCP, port: 9099}
{{- end }}
{{- range $name, $rule := .svc.extraEgress }}
- {{ toYaml $rule | nindent 2 | trim }}
{{- end }}
{{- end -}}

{{/* Who may reach a service: the ingress controller (gateway), the services that call it, and
the metrics scrapers. */}}
{{- define "santa.service.ingress" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $from := list -}}
{{- if eq $name "gateway" -}}
{{- $from = append $from (dict "namespaceSelector" $root.Values.networkPolicy.ingressController.namespaceSelector "podSelector" $root.Values.networkPolicy.ingressController.podSelector) -}}
{{- end -}}
{{- range $caller, $other := $root.Values.services -}}
{{- if and $other.enabled (has $name $other.calls) -}}
{{- $from = append $from (dict "podSelector" (dict "matchLabels" (include "santa.selectorLabels" (dict "root" $root "name" $caller) | fromYaml))) -}}
{{- end -}}
{{- end -}}
{{- if $from }}
- from:
    {{- toYaml $from | nindent 4 }}
  ports:
    - {protocol: TCP, port: 8080}
{{- end }}
{{- /* Scrapers reach only the admin port (/metrics, /readyz), which nothing else may. */ -}}
{{- with $root.Values.networkPolicy.metricsScrapers }}
- from:
    {{- toYaml . | nindent 4 }}
  ports:
    - {protocol: TCP, port: 9090}
{{- end }}
{{- end -}}
