package main

import (
	"flag"
	"slices"
	"testing"
	"time"
)

// The controllers are chosen by the blank imports alone, and a package of cert-manager can
// import another that registers more (an ACME controller would need solver images and RBAC this
// cluster does not give), so the exact set is pinned here.
func TestTheControllersAreTheLocalCAsOnly(t *testing.T) {
	want := []string{
		"certificaterequests-approver",
		"certificaterequests-issuer-ca",
		"certificaterequests-issuer-selfsigned",
		"certificates-issuing",
		"certificates-key-manager",
		"certificates-readiness",
		"certificates-request-manager",
		"certificates-revision-manager",
		"certificates-trigger",
		"clusterissuers",
		"ingress-shim",
		"issuers",
	}
	if got := enabled(""); !slices.Equal(got, want) {
		t.Errorf("cluster wide, the controllers are\n%q\nwant\n%q", got, want)
	}
	// Watching one namespace, ClusterIssuers are not this controller's to set up.
	oneNS := slices.DeleteFunc(slices.Clone(want), func(n string) bool { return n == "clusterissuers" })
	if got := enabled("santa"); !slices.Equal(got, oneNS) {
		t.Errorf("in one namespace, the controllers are\n%q\nwant\n%q", got, oneNS)
	}
}

func TestFlagsReachTheControllerContext(t *testing.T) {
	o, err := parseFlags(flag.NewFlagSet("t", flag.ContinueOnError), []string{
		"-namespace", "santa", "-cluster-resource-namespace", "pki", "-kube-api-qps", "7",
		"-certificate-request-minimum-backoff", "1m", "-leader-elect=false",
	})
	if err != nil {
		t.Fatal(err)
	}
	c := o.contextOptions()
	if c.Namespace != "santa" || c.ClusterResourceNamespace != "pki" || c.KubernetesAPIQPS != 7 ||
		c.KubernetesAPIBurst != 50 || c.CertificateRequestMinimumBackoffDuration != time.Minute ||
		c.CertificateRequestMaximumBackoffDuration != 32*time.Hour || o.leaderElect {
		t.Errorf("options %+v became %+v", o, c)
	}
	// Without a default issuer ingress-shim leaves Ingresses without the annotation alone.
	if c.DefaultIssuerName != "" {
		t.Errorf("a default issuer %q: every Ingress with tls would get a Certificate", c.DefaultIssuerName)
	}
}
