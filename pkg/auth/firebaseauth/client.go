package firebaseauth

import (
	"context"
	"fmt"
	"reflect"

	fbauth "firebase.google.com/go/v4/auth"
)

// newAuthClient builds the Admin SDK's auth client (the one firebase.App.Auth returns) without
// importing the SDK's root package. The root package links Firestore, Cloud Storage, Cloud
// Messaging and the Realtime Database, whose package initialisers alone kept 3.3 MB of the
// gateway's binary resident, for services the gateway never calls (measured with `make bench`:
// 29.9 → 26.6 MB after the run).
//
// auth.NewClient is public, but its config type lives in the SDK's internal package, which Go
// lets us fill only through reflection. What App.Auth puts there that matters to verifying ID
// tokens is the project id; the rest (credentials, scopes, the SDK version for its request
// headers) serves the SDK's user-management calls, which the gateway does not make. Should an
// SDK upgrade change that type, the service stops at start with this error instead of running
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
	out := newClient.Call([]reflect.Value{reflect.ValueOf(ctx), conf})
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, fmt.Errorf("firebase auth client: %w", err)
	}
	return out[0].Interface().(*fbauth.Client), nil
}
