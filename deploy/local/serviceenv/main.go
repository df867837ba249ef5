// Command serviceenv prints the environment the local stack (deploy/local/stack.sh) starts one
// service with, as KEY=value lines. Which service gets which setting is defined once, in the
// chart's values (charts/santa-wishlist/values.yaml: services.<name>.uses, calls and env), and
// rendered here by the rules the chart's templates follow, so that a service gets the same
// variables on a laptop as in a pod; deploy/chartcheck compares the two renderings.
//
//	serviceenv [-values FILE] [-local FILE] SERVICE
//	serviceenv [-values FILE] -signers      the services that sign their calls, one a line
//
// The local stack's side comes from the environment, under the names the services read where
// there is one: PORT_<service> and ADMIN_PORT_<service> (every service's ports), DATABASE_URL,
// REDIS_URL, NATS_ADDR and NATS_PASS_<service>, EVENTS_NAMESPACE, MINIO_ENDPOINT, MINIO_BUCKET,
// MINIO_ACCESS_KEY, MINIO_SECRET_KEY, FIREBASE_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST,
// GEMINI_API_KEY, GEMINI_BASE_URL, SMTP_URL, PUBLIC_URL, VAPID_PRIVATE_KEY, IDENTITY_KEY_<signer>,
// IDENTITY_PUB_<signer>, MEDIA_URL_SECRET, and whatever the local file refers to.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	values := flag.String("values", "charts/santa-wishlist/values.yaml", "the chart's values")
	local := flag.String("local", "deploy/local/env.yaml", "the local stack's own settings")
	signers := flag.Bool("signers", false, "print the services that sign their calls and exit")
	flag.Parse()
	v, err := LoadValues(*values)
	if err != nil {
		fail(err)
	}
	if *signers {
		fmt.Println(strings.Join(v.Signers(), "\n"))
		return
	}
	if flag.NArg() != 1 {
		fail(fmt.Errorf("usage: serviceenv [-values FILE] [-local FILE] SERVICE"))
	}
	l, err := LoadLocal(*local, v)
	if err != nil {
		fail(err)
	}
	env, err := Render(v, l, flag.Arg(0), os.Getenv)
	if err != nil {
		fail(err)
	}
	fmt.Print(Lines(env))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "serviceenv:", err)
	os.Exit(1)
}
