{{/*
The one template for the in-chart dependencies (dependencies.yaml describes each): a
ServiceAccount, a Service, a StatefulSet with a volume (or a Deployment when it keeps no data)
and a NetworkPolicy that admits only the services using it.

dict: root, name, image, uid, ports ([{name, port}]), args, env, probes ({startup, liveness,
readiness}), storage ({size, storageClassName, mountPath} or nil), emptyDirs ([{name,
mountPath, medium, sizeLimit}]), configMounts ([{name, configMap or secret, mountPath,
subPath}]), resources, clients (service names, and dependencies' names), egress (NetworkPolicy
egress rules besides DNS, for a dependency that calls out), workingDir, and for a clustered StatefulSet
(NATS): replicas (default 1) and peerPorts ([{name, port}], the ports the replicas reach each
other on, through a headless Service that names every pod).
*/}}
{{- define "santa.dependency" -}}
{{- $root := .root -}}
{{- $ctx := dict "root" $root "name" .name "component" "dependency" -}}
{{- $fullname := include "santa.name" $ctx -}}
{{- $replicas := int (.replicas | default 1) -}}
{{- $clustered := gt $replicas 1 -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "santa.labels" $ctx | nindent 4 }}
automountServiceAccountToken: false
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "santa.labels" $ctx | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "santa.selectorLabels" $ctx | nindent 4 }}
  ports:
    {{- range .ports }}
    - name: {{ .name }}
      port: {{ .port }}
      targetPort: {{ .name }}
      protocol: TCP
    {{- end }}
{{- if $clustered }}
---
# Every replica by name (<pod>.<this service>), for the replicas to find each other; listed
# before they are ready, because they become ready only once they found each other.
apiVersion: v1
kind: Service
metadata:
  name: {{ $fullname }}-peers
  labels:
    {{- include "santa.labels" $ctx | nindent 4 }}
spec:
  clusterIP: None
  publishNotReadyAddresses: true
  selector:
    {{- include "santa.selectorLabels" $ctx | nindent 4 }}
  ports:
    {{- range .peerPorts }}
    - name: {{ .name }}
      port: {{ .port }}
      targetPort: {{ .name }}
      protocol: TCP
    {{- end }}
---
# One replica away at a time (a node drain, a rollout): the others keep a quorum.
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "santa.labels" $ctx | nindent 4 }}
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      {{- include "santa.selectorLabels" $ctx | nindent 6 }}
{{- end }}
---
apiVersion: apps/v1
kind: {{ if .storage }}StatefulSet{{ else }}Deployment{{ end }}
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "santa.labels" $ctx | nindent 4 }}
spec:
  {{- if $clustered }}
  replicas: {{ $replicas }}
  # All at once: a replica is ready only when it reaches a quorum of the others, so one by one
  # the first would wait for ever. Rollouts still replace them one at a time.
  podManagementPolicy: Parallel
  serviceName: {{ $fullname }}-peers
  {{- else }}
  # One replica: the stand-in of a managed service, not a highly available server.
  replicas: 1
  {{- end }}
  {{- if .storage }}
  {{- if not $clustered }}
  serviceName: {{ $fullname }}
  {{- end }}
  {{- else }}
  strategy:
    type: Recreate
  {{- end }}
  selector:
    matchLabels:
      {{- include "santa.selectorLabels" $ctx | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "santa.labels" $ctx | nindent 8 }}
      {{- with .podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ $fullname }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      securityContext:
        {{- include "santa.podSecurityContext" (dict "uid" .uid) | nindent 8 }}
      terminationGracePeriodSeconds: 30
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .name }}
          image: {{ .image | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          {{- with .args }}
          args:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          {{- with .workingDir }}
          workingDir: {{ . }}
          {{- end }}
          ports:
            {{- range concat .ports (.peerPorts | default list) }}
            - name: {{ .name }}
              containerPort: {{ .port }}
              protocol: TCP
            {{- end }}
          {{- with .env }}
          env:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          startupProbe:
            {{- toYaml .probes.startup | nindent 12 }}
          livenessProbe:
            {{- toYaml .probes.liveness | nindent 12 }}
          readinessProbe:
            {{- toYaml .probes.readiness | nindent 12 }}
          resources:
            {{- toYaml .resources | nindent 12 }}
          securityContext:
            {{- include "santa.containerSecurityContext" . | nindent 12 }}
          volumeMounts:
            {{- if .storage }}
            - name: data
              mountPath: {{ .storage.mountPath }}
            {{- end }}
            {{- range .emptyDirs }}
            - name: {{ .name }}
              mountPath: {{ .mountPath }}
            {{- end }}
            {{- range .configMounts }}
            - name: {{ .name }}
              mountPath: {{ .mountPath }}
              subPath: {{ .subPath }}
              readOnly: true
            {{- end }}
      volumes:
        {{- range .emptyDirs }}
        - name: {{ .name }}
          emptyDir:
            {{- with .medium }}
            medium: {{ . }}
            {{- end }}
            sizeLimit: {{ .sizeLimit }}
        {{- end }}
        {{- range .configMounts }}
        - name: {{ .name }}
          {{- if .secret }}
          secret:
            secretName: {{ .secret }}
          {{- else }}
          configMap:
            name: {{ .configMap }}
          {{- end }}
        {{- end }}
  {{- with .storage }}
  volumeClaimTemplates:
    - metadata:
        name: data
        labels:
          {{- include "santa.selectorLabels" $ctx | nindent 10 }}
      spec:
        accessModes: [ReadWriteOnce]
        {{- with .storageClassName }}
        storageClassName: {{ . }}
        {{- end }}
        resources:
          requests:
            storage: {{ .size }}
  {{- end }}
{{- if $root.Values.networkPolicy.enabled }}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "santa.labels" $ctx | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "santa.selectorLabels" $ctx | nindent 6 }}
  policyTypes: [Ingress, Egress]
  {{- if or .clients $clustered }}
  ingress:
    {{- if .clients }}
    - from:
        {{- range .clients }}
        {{- include "santa.peer" (dict "root" $root "name" .) | nindent 8 }}
        {{- end }}
      ports:
        - {protocol: TCP, port: {{ (first .ports).port }}}
    {{- end }}
    {{- if $clustered }}
    - from:
        {{- include "santa.peer" $ctx | nindent 8 }}
      ports:
        {{- range .peerPorts }}
        - {protocol: TCP, port: {{ .port }}}
        {{- end }}
    {{- end }}
  {{- else }}
  ingress: []
  {{- end }}
  {{- if $clustered }}
  # Only its own replicas, found by name.
  egress:
    {{- include "santa.dnsEgress" $root | nindent 4 }}
    - to:
        {{- include "santa.peer" $ctx | nindent 8 }}
      ports:
        {{- range .peerPorts }}
        - {protocol: TCP, port: {{ .port }}}
        {{- end }}
  {{- else if .egress }}
  # Only what it calls (PostgreSQL's backups: the object store).
  egress:
    {{- include "santa.dnsEgress" $root | nindent 4 }}
    {{- toYaml .egress | nindent 4 }}
  {{- else }}
  # It calls nothing, so it may reach nothing.
  egress: []
  {{- end }}
{{- end }}
{{- end -}}

{{/* Services whose `uses` contains dep. dict: root, dep. Returns a JSON list. */}}
{{- define "santa.clientsOf" -}}
{{- $clients := list -}}
{{- range $name, $svc := .root.Values.services -}}
{{- if and $svc.enabled (has $.dep $svc.uses) -}}
{{- $clients = append $clients $name -}}
{{- end -}}
{{- end -}}
{{- toJson $clients -}}
{{- end -}}
