// Command vapidkey prints a new Web Push (VAPID) private key as VAPID_PRIVATE_KEY=<base64url>,
// for deploy/local/stack.sh; notification derives the public key from it.
package main

import (
	"fmt"
	"os"

	webpush "github.com/SherClockHolmes/webpush-go"
)

func main() {
	priv, _, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("VAPID_PRIVATE_KEY=%s\n", priv)
}
