// Command identitykeys makes an Ed25519 key for each service named on the command line, for
// the identity assertions between services (pkg/auth), and prints them as shell assignments:
//
//	IDENTITY_KEY_gateway=<base64 seed: that service's IDENTITY_SIGNING_KEY, a secret>
//	IDENTITY_PUB_gateway=<base64 public key: for the IDENTITY_PUBLIC_KEYS of services it calls>
//
// The local stacks run it once per stack; for a cluster, put the seeds in the Secret and the
// public keys in the chart's values (see the README).
package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"os"
	"regexp"
)

var name = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: identitykeys gateway wishlist vision")
		os.Exit(2)
	}
	for _, issuer := range os.Args[1:] {
		if !name.MatchString(issuer) {
			fmt.Fprintf(os.Stderr, "identitykeys: %q is not a service name\n", issuer)
			os.Exit(2)
		}
		pub, priv, err := ed25519.GenerateKey(nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "identitykeys:", err)
			os.Exit(1)
		}
		fmt.Printf("IDENTITY_KEY_%s=%s\nIDENTITY_PUB_%s=%s\n", issuer,
			base64.StdEncoding.EncodeToString(priv.Seed()), issuer, base64.StdEncoding.EncodeToString(pub))
	}
}
