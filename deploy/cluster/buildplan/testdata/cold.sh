log 'building Kubernetes v1.33.13 from the Go module proxy (about 40 min on two cores, once)'
mkdir -p /c/src/kubernetes-v1.33.13 /c/kubernetes-v1.33.13.tmp
buildplan prepare kubernetes
(cd /c/src/kubernetes-v1.33.13 && GOFLAGS=-mod=mod go mod tidy)
(cd /c/src/kubernetes-v1.33.13 && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags '-s -w  -X k8s.io/component-base/version.gitVersion=v1.33.13 -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=33 -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/client-go/pkg/version.gitVersion=v1.33.13 -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=33 -X k8s.io/client-go/pkg/version.gitTreeState=clean' -o /c/kubernetes-v1.33.13.tmp/ k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy k8s.io/kubernetes/cmd/kubectl)
rm -rf /c/kubernetes-v1.33.13
mv /c/kubernetes-v1.33.13.tmp /c/kubernetes-v1.33.13
log 'building skaffold v2.16.1 from the Go module proxy (once)'
mkdir -p /c/src/skaffold-v2.16.1 /c/skaffold-v2.16.1.tmp
buildplan prepare skaffold
(cd /c/src/skaffold-v2.16.1 && GOFLAGS=-mod=mod go mod tidy)
(cd /c/src/skaffold-v2.16.1 && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags '-s -w -X github.com/GoogleContainerTools/skaffold/v2/pkg/skaffold/version.version=v2.16.1' -o /c/skaffold-v2.16.1.tmp/skaffold github.com/GoogleContainerTools/skaffold/v2/cmd/skaffold)
rm -rf /c/skaffold-v2.16.1
mv /c/skaffold-v2.16.1.tmp /c/skaffold-v2.16.1
log 'building Traefik v3.6.12 from the Go module proxy (about 20 min on two cores, once)'
buildplan prepare traefik
mkdir -p /c/traefik-v3.6.12.tmp
(cd /c/src/traefik-v3.6.12 && CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=mod go build -trimpath -ldflags '-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=v3.6.12' -o /c/traefik-v3.6.12.tmp/traefik ./cmd/traefik)
rm -rf /c/traefik-v3.6.12
mv /c/traefik-v3.6.12.tmp /c/traefik-v3.6.12
log 'building KEDA v2.20.2 from the Go module proxy (about 20 min on two cores, once)'
buildplan prepare keda
mkdir -p /c/keda-v2.20.2.tmp
(cd /c/src/keda-v2.20.2 && CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=mod go build -trimpath -ldflags '-s -w -X github.com/kedacore/keda/v2/version.Version=v2.20.2' -o /c/keda-v2.20.2.tmp/keda ./cmd/operator)
(cd /c/src/keda-v2.20.2 && CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=mod go build -trimpath -ldflags '-s -w -X github.com/kedacore/keda/v2/version.Version=v2.20.2' -o /c/keda-v2.20.2.tmp/keda-adapter ./cmd/adapter)
rm -rf /c/keda-v2.20.2
mv /c/keda-v2.20.2.tmp /c/keda-v2.20.2
log 'building crane v0.20.3 from the Go module proxy (once)'
mkdir -p /c/crane-v0.20.3.tmp
(cd /tmp && CGO_ENABLED=0 GOBIN=/c/crane-v0.20.3.tmp GOFLAGS=-buildvcs=false go install -trimpath -ldflags '-s -w' github.com/google/go-containerregistry/cmd/crane@v0.20.3)
rm -rf /c/crane-v0.20.3
mv /c/crane-v0.20.3.tmp /c/crane-v0.20.3
log 'building coredns v1.12.1 from the Go module proxy (once)'
mkdir -p /c/coredns-v1.12.1.tmp
(cd /tmp && CGO_ENABLED=0 GOBIN=/c/coredns-v1.12.1.tmp GOFLAGS=-buildvcs=false go install -trimpath -ldflags '-s -w' github.com/coredns/coredns@v1.12.1)
rm -rf /c/coredns-v1.12.1
mv /c/coredns-v1.12.1.tmp /c/coredns-v1.12.1
log 'building metrics-server v0.7.2 from the Go module proxy (once)'
mkdir -p /c/metrics-server-v0.7.2.tmp
(cd /tmp && CGO_ENABLED=0 GOBIN=/c/metrics-server-v0.7.2.tmp GOFLAGS=-buildvcs=false go install -trimpath -ldflags '-s -w' sigs.k8s.io/metrics-server/cmd/metrics-server@v0.7.2)
rm -rf /c/metrics-server-v0.7.2
mv /c/metrics-server-v0.7.2.tmp /c/metrics-server-v0.7.2
log 'building kube-router v2.1.0 from the Go module proxy (once)'
mkdir -p /c/kube-router-v2.1.0.tmp
(cd /tmp && CGO_ENABLED=0 GOBIN=/c/kube-router-v2.1.0.tmp GOFLAGS=-buildvcs=false go install -trimpath -ldflags '-s -w' github.com/cloudnativelabs/kube-router/v2/cmd/kube-router@v2.1.0)
rm -rf /c/kube-router-v2.1.0
mv /c/kube-router-v2.1.0.tmp /c/kube-router-v2.1.0
log 'building local-path-provisioner v0.0.30 from the Go module proxy (once)'
mkdir -p /c/local-path-provisioner-v0.0.30.tmp
(cd /tmp && CGO_ENABLED=0 GOBIN=/c/local-path-provisioner-v0.0.30.tmp GOFLAGS=-buildvcs=false go install -trimpath -ldflags '-s -w' github.com/rancher/local-path-provisioner@v0.0.30)
rm -rf /c/local-path-provisioner-v0.0.30
mv /c/local-path-provisioner-v0.0.30.tmp /c/local-path-provisioner-v0.0.30
log 'building nats-server v2.15.2 from the Go module proxy (once)'
mkdir -p /c/nats-server-v2.15.2.tmp
(cd /tmp && CGO_ENABLED=0 GOBIN=/c/nats-server-v2.15.2.tmp GOFLAGS=-buildvcs=false go install -trimpath -ldflags '-s -w' github.com/nats-io/nats-server/v2@v2.15.2)
rm -rf /c/nats-server-v2.15.2
mv /c/nats-server-v2.15.2.tmp /c/nats-server-v2.15.2
log 'building minio v0.0.0-20260212201848-7aac2a2c5b7c from the Go module proxy (once)'
mkdir -p /c/minio-v0.0.0-20260212201848-7aac2a2c5b7c.tmp
(cd /tmp && CGO_ENABLED=0 GOBIN=/c/minio-v0.0.0-20260212201848-7aac2a2c5b7c.tmp GOFLAGS=-buildvcs=false go install -trimpath -ldflags '-s -w' github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c)
rm -rf /c/minio-v0.0.0-20260212201848-7aac2a2c5b7c
mv /c/minio-v0.0.0-20260212201848-7aac2a2c5b7c.tmp /c/minio-v0.0.0-20260212201848-7aac2a2c5b7c
log 'building mailpit v1.27.11 from the Go module proxy (once)'
mkdir -p /c/mailpit-v1.27.11.tmp
(cd /tmp && CGO_ENABLED=0 GOBIN=/c/mailpit-v1.27.11.tmp GOFLAGS=-buildvcs=false go install -trimpath -ldflags '-s -w' github.com/axllent/mailpit@v1.27.11)
rm -rf /c/mailpit-v1.27.11
mv /c/mailpit-v1.27.11.tmp /c/mailpit-v1.27.11
log 'building the cert-manager controller v1.21.2-9edafdad1b7caa20 from testdata/checkout/deploy/cluster/cert-manager (about 15 min on two cores, again after each change of deploy/cluster/cert-manager)'
mkdir -p /c/cert-manager-v1.21.2-9edafdad1b7caa20.tmp
(cd testdata/checkout/deploy/cluster/cert-manager && CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=mod go build -trimpath -ldflags '-s -w' -o /c/cert-manager-v1.21.2-9edafdad1b7caa20.tmp/cert-manager-controller .)
rm -rf /c/cert-manager-v1.21.2-9edafdad1b7caa20
mv /c/cert-manager-v1.21.2-9edafdad1b7caa20.tmp /c/cert-manager-v1.21.2-9edafdad1b7caa20
