// cert-manager-controller is the part of cert-manager the local cluster needs, built from the
// main module github.com/cert-manager/cert-manager (the Go module proxy here serves it, but not
// github.com/cert-manager/cert-manager/cmd/controller, the module of cert-manager's own binary).
// Its controllers register themselves with pkg/controller when their packages are imported, so
// this binary is the blank imports below plus what cmd/controller's app does around them:
// clients and informers (pkg/controller.NewContextFactory), leader election, /metrics and
// /livez. It runs:
//
//   - the Certificate pipeline: trigger, key manager, request manager, readiness, issuing and
//     the revision manager (which prunes old CertificateRequests);
//   - the approver (cert-manager's issuers sign only approved CertificateRequests) and the CA
//     and SelfSigned issuers of CertificateRequests;
//   - the Issuer and ClusterIssuer controllers (an issuer is used only once it is Ready);
//   - ingress-shim, which makes a Certificate for an Ingress annotated with
//     cert-manager.io/cluster-issuer or cert-manager.io/issuer (the chart's ingress.tls.certManager).
//
// No ACME, Vault or Venafi, no webhook and no cainjector: production runs the real cert-manager
// from its Helm chart; the local cluster only issues from its own CA (deploy/cluster/cert-manager.yaml).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"

	"github.com/cert-manager/cert-manager/pkg/controller"
	"github.com/cert-manager/cert-manager/pkg/controller/clusterissuers"
	"github.com/cert-manager/cert-manager/pkg/healthz"
	logf "github.com/cert-manager/cert-manager/pkg/logs"

	// The controllers this binary runs: each package registers its own in init.
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificate-shim/ingresses"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/approver"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/ca"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/selfsigned"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/issuing"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/keymanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/readiness"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/requestmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/revisionmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/trigger"
	_ "github.com/cert-manager/cert-manager/pkg/controller/clusterissuers"
	_ "github.com/cert-manager/cert-manager/pkg/controller/issuers"
	// The issuer types the Issuer controllers can set up (their Ready condition).
	_ "github.com/cert-manager/cert-manager/pkg/issuer/ca"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/selfsigned"
)

// options are the flags; their defaults are cert-manager's own (its controller configuration's
// v1alpha1 defaults), but for the cluster resource namespace, which is ours.
type options struct {
	kubeconfig, master       string
	namespace                string // "" watches every namespace
	clusterResourceNamespace string // where a ClusterIssuer's Secrets are read
	workers                  int
	qps                      float64
	burst                    int
	minBackoff, maxBackoff   time.Duration
	metricsAddr, healthzAddr string
	leaderElect              bool
	leaseNamespace           string
	lease, renew, retry      time.Duration
	leaderHealthzTimeout     time.Duration
}

func parseFlags(fs *flag.FlagSet, args []string) (options, error) {
	var o options
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "kubeconfig file (default: the pod's service account)")
	fs.StringVar(&o.master, "master", "", "the API server's address, overriding the kubeconfig's")
	fs.StringVar(&o.namespace, "namespace", "", "the only namespace to watch (default: all; the ClusterIssuer controller then stays off)")
	fs.StringVar(&o.clusterResourceNamespace, "cluster-resource-namespace", "cert-manager", "the namespace of the Secrets ClusterIssuers refer to")
	fs.IntVar(&o.workers, "workers", 5, "workers per controller")
	fs.Float64Var(&o.qps, "kube-api-qps", 20, "API requests a second when the server has no priority and fairness")
	fs.IntVar(&o.burst, "kube-api-burst", 50, "API request burst, likewise")
	fs.DurationVar(&o.minBackoff, "certificate-request-minimum-backoff", time.Hour, "first wait after a failed issuance")
	fs.DurationVar(&o.maxBackoff, "certificate-request-maximum-backoff", 32*time.Hour, "longest wait after failed issuances")
	fs.StringVar(&o.metricsAddr, "metrics-listen-address", "0.0.0.0:9402", "Prometheus /metrics")
	fs.StringVar(&o.healthzAddr, "healthz-listen-address", "0.0.0.0:9403", "/livez")
	fs.BoolVar(&o.leaderElect, "leader-elect", true, "run the controllers only while holding the Lease (more than one replica)")
	fs.StringVar(&o.leaseNamespace, "leader-election-namespace", "cert-manager", "the namespace of the Lease")
	fs.DurationVar(&o.lease, "leader-election-lease-duration", 60*time.Second, "")
	fs.DurationVar(&o.renew, "leader-election-renew-deadline", 40*time.Second, "")
	fs.DurationVar(&o.retry, "leader-election-retry-period", 15*time.Second, "")
	fs.DurationVar(&o.leaderHealthzTimeout, "leader-election-healthz-timeout", 20*time.Second, "how late a lease renewal may be before /livez fails")
	klog.InitFlags(fs) // -v: cert-manager logs its progress at 2
	return o, fs.Parse(args)
}

func (o options) contextOptions() controller.ContextOptions {
	return controller.ContextOptions{
		Kubeconfig:         o.kubeconfig,
		APIServerHost:      o.master,
		KubernetesAPIQPS:   float32(o.qps),
		KubernetesAPIBurst: o.burst,
		Namespace:          o.namespace,
		IssuerOptions:      controller.IssuerOptions{ClusterResourceNamespace: o.clusterResourceNamespace},
		CertificateOptions: controller.CertificateOptions{
			CertificateRequestMinimumBackoffDuration: o.minBackoff,
			CertificateRequestMaximumBackoffDuration: o.maxBackoff,
		},
		// ingress-shim's defaults: no default issuer, so only annotated Ingresses get a Certificate.
		IngressShimOptions: controller.IngressShimOptions{DefaultIssuerKind: "Issuer", DefaultIssuerGroup: "cert-manager.io"},
	}
}

// enabled are the registered controllers this run starts, sorted: all of them, but the
// ClusterIssuer controller when only one namespace is watched (as cert-manager does).
func enabled(namespace string) []string {
	var names []string
	for n := range controller.Known() {
		if namespace != "" && n == clusterissuers.ControllerName {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func main() {
	o, err := parseFlags(flag.CommandLine, os.Args[1:])
	if err != nil {
		os.Exit(2)
	}
	logf.InitLogs()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	ctx = logf.NewContext(ctx, logf.Log, "controller")
	// Stopped by a signal, the controllers may still say their caches never synced: that is the
	// stop, not a failure.
	if err := run(ctx, o); err != nil && ctx.Err() == nil {
		logf.Log.Error(err, "cert-manager controller stopped")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	klog.Flush()
}

func run(ctx context.Context, o options) error {
	log := logf.FromContext(ctx)
	factory, err := controller.NewContextFactory(ctx, o.contextOptions())
	if err != nil {
		return err
	}
	base, err := factory.Build()
	if err != nil {
		return err
	}
	g, ctx := errgroup.WithContext(ctx)

	// /metrics, with the certificate (expiry, readiness) and issuer collectors; they ask the
	// informer factories for their listers, so before the factories start.
	cm := base.SharedInformerFactory.Certmanager().V1()
	base.Metrics.SetupCertificateCollector(cm.Certificates().Lister())
	base.Metrics.SetupIssuerCollector(cm.Issuers().Lister())
	if o.namespace == "" {
		base.Metrics.SetupClusterIssuerCollector(cm.ClusterIssuers().Lister())
	}
	metricsLn, err := net.Listen("tcp", o.metricsAddr)
	if err != nil {
		return err
	}
	serve(ctx, g, base.Metrics.NewServer(metricsLn), metricsLn)

	// /livez: fails when the leader election stalls or the clock jumps.
	healthzLn, err := net.Listen("tcp", o.healthzAddr)
	if err != nil {
		return err
	}
	health := healthz.NewServer(o.leaderHealthzTimeout)
	g.Go(func() error { return health.Start(ctx, healthzLn) })

	if err := elect(ctx, g, o, factory, health.LeaderHealthzAdaptor); err != nil {
		if ctx.Err() != nil { // stopped (or failed) before being elected: g says which
			return g.Wait()
		}
		return errors.Join(err, g.Wait())
	}
	names := enabled(o.namespace)
	log.Info("starting controllers", "controllers", names, "namespace", o.namespace)
	for _, n := range names {
		c, err := controller.Known()[n](factory)
		if err != nil {
			return errors.Join(fmt.Errorf("controller %s: %w", n, err), g.Wait())
		}
		g.Go(func() error { return c.Run(o.workers, ctx) })
	}
	// The controllers asked for their informers above; these start them (every controller's
	// Context shares the factories of base).
	base.SharedInformerFactory.Start(ctx.Done())
	base.KubeSharedInformerFactory.Start(ctx.Done())
	base.HTTP01ResourceMetadataInformersFactory.Start(ctx.Done())
	return g.Wait()
}

// elect returns once this process may run the controllers: at once without leader election,
// otherwise when it holds the Lease, or with ctx's error when it stops before. Losing the Lease
// later is an error of g, which stops everything (the pod restarts and queues up again).
func elect(ctx context.Context, g *errgroup.Group, o options, factory *controller.ContextFactory, watchdog *leaderelection.HealthzAdaptor) error {
	if !o.leaderElect {
		return nil
	}
	c, err := factory.Build("leader-election")
	if err != nil {
		return err
	}
	id, err := os.Hostname()
	if err != nil {
		return err
	}
	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, o.leaseNamespace, "cert-manager-controller",
		nil, c.Client.CoordinationV1(), resourcelock.ResourceLockConfig{Identity: id + "-santa", EventRecorder: c.Recorder})
	if err != nil {
		return err
	}
	elected := make(chan struct{})
	g.Go(func() error {
		leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
			Lock: lock, LeaseDuration: o.lease, RenewDeadline: o.renew, RetryPeriod: o.retry,
			ReleaseOnCancel: true, Name: "cert-manager-controller", WatchDog: watchdog,
			Callbacks: leaderelection.LeaderCallbacks{
				OnStartedLeading: func(context.Context) { close(elected) },
				OnStoppedLeading: func() {},
			},
		})
		if ctx.Err() == nil {
			return errors.New("leader election lost")
		}
		return nil
	})
	select {
	case <-elected:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// serve runs srv on ln until ctx ends, then gives it 5 s to finish.
func serve(ctx context.Context, g *errgroup.Group, srv *http.Server, ln net.Listener) {
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	g.Go(func() error {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown) //nolint:contextcheck // ctx is already done
	})
}
