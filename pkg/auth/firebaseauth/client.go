package firebaseauth

import (
	"context"
	"fmt"
	"reflect"

	fbauth "firebase.google.com/go/v4/auth"
	"google.golang.org/api/option"
)

// AdminScopes are the OAuth scopes the Admin SDK's Auth calls are made with: the two of the
// SDK's own list (App.Auth's) that the Identity Toolkit API accepts. What the identity may do is
// still only what its IAM roles allow (roles/firebaseauth.admin).
var AdminScopes = []string{
	"https://www.googleapis.com/auth/cloud-platform",
	"https://www.googleapis.com/auth/identitytoolkit",
}

// newAuthClient builds the Admin SDK's auth client (the one firebase.App.Auth returns) without
// importing the SDK's root package. The root package links Firestore, Cloud Storage, Cloud
// Messaging and the Realtime Database, whose package initialisers alone kept 3.3 MB of the
// gateway's binary resident, for services the gateway never calls (measured with `make bench`:
// 29.9 → 26.6 MB after the run).
//
// auth.NewClient is public, but its config type lives in the SDK's internal package, which Go
// lets us fill only through reflection. What App.Auth puts there that matters to verifying ID
// tokens is the project id. The user-management calls (notification's GetUser, the gateway's
// DeleteUser) also need the OAuth scopes App.Auth passes: Application Default Credentials from
// a service account key (GOOGLE_APPLICATION_CREDENTIALS, the chart's mounted key) ask Google's
// token endpoint for exactly the scopes given, and none is refused, so every lookup would fail;
// a workload identity's metadata server grants its defaults either way. Should an SDK upgrade
// change that type, the service stops at start with this error instead of running
// half-configured, and the token tests fail.
func newAuthClient(ctx context.Context, projectID string) (*fbauth.Client, error) {
	newClient := reflect.ValueOf(fbauth.NewClient)
	if t := newClient.Type(); t.NumIn() != 2 || t.In(1).Kind() != reflect.Pointer || t.In(1).Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("firebase auth client: auth.NewClient is now %s; update pkg/auth/firebaseauth", t)
	}
	conf := reflect.New(newClient.Type().In(1).Elem())
	field := conf.Elem().FieldByName("ProjectID")
	if !field.IsValid() || field.Kind() != reflect.String || !field.CanSet() {
		return nil, fmt.Errorf("firebase auth client: the SDK's auth config has no ProjectID; update pkg/auth/firebaseauth")
	}
	field.SetString(projectID)
	opts := conf.Elem().FieldByName("Opts")
	if !opts.IsValid() || !opts.CanSet() || opts.Type() != reflect.TypeOf([]option.ClientOption(nil)) {
		return nil, fmt.Errorf("firebase auth client: the SDK's auth config has no Opts []option.ClientOption; update pkg/auth/firebaseauth")
	}
	opts.Set(reflect.ValueOf([]option.ClientOption{option.WithScopes(AdminScopes...)}))
	out := newClient.Call([]reflect.Value{reflect.ValueOf(ctx), conf})
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, fmt.Errorf("firebase auth client: %w", err)
	}
	return out[0].Interface().(*fbauth.Client), nil
}
