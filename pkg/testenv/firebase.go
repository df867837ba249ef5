package testenv

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// FirebaseProject is the demo project the Auth emulator runs.
const FirebaseProject = "demo-santa"

// AuthEmulatorHost is where the Firebase Auth emulator answers.
func AuthEmulatorHost() string { return env("FIREBASE_AUTH_EMULATOR_HOST", "127.0.0.1:9099") }

// Session is a signed-in emulator user, as a browser would hold it.
type Session struct {
	UID     string
	Email   string
	IDToken string
}

// SignUp creates a user through the emulator's REST API (the same call the web SDK makes) and
// returns its session. With a display name, the token carries it.
func SignUp(t testing.TB, email, password, displayName string) Session {
	t.Helper()
	var out struct {
		IDToken string `json:"idToken"`
		LocalID string `json:"localId"`
	}
	identityCall(t, "accounts:signUp", map[string]any{"email": email, "password": password, "returnSecureToken": true}, &out)
	if displayName != "" {
		identityCall(t, "accounts:update", map[string]any{"idToken": out.IDToken, "displayName": displayName, "returnSecureToken": true}, nil)
		return SignIn(t, email, password)
	}
	return Session{UID: out.LocalID, Email: email, IDToken: out.IDToken}
}

// SignIn signs an existing user in with email and password.
func SignIn(t testing.TB, email, password string) Session {
	t.Helper()
	var out struct {
		IDToken string `json:"idToken"`
		LocalID string `json:"localId"`
	}
	identityCall(t, "accounts:signInWithPassword", map[string]any{"email": email, "password": password, "returnSecureToken": true}, &out)
	return Session{UID: out.LocalID, Email: email, IDToken: out.IDToken}
}

func identityCall(t testing.TB, method string, body map[string]any, out any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	url := fmt.Sprintf("http://%s/identitytoolkit.googleapis.com/v1/%s?key=fake-api-key", AuthEmulatorHost(), method)
	resp, err := http.Post(url, "application/json", bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("Auth emulator at %s: %v (is it running? `make test` starts it)", AuthEmulatorHost(), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&e)
		t.Fatalf("%s: %d %v", method, resp.StatusCode, e)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s: decode: %v", method, err)
		}
	}
}

// UnsignedToken builds an emulator-style (alg none) token with the given audience and
// expiry, to prove the gateway checks the project and the expiry itself.
func UnsignedToken(uid, project string, expires time.Time) string {
	header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	claims, _ := json.Marshal(map[string]any{
		"iss": "https://securetoken.google.com/" + project, "aud": project,
		"sub": uid, "user_id": uid, "iat": expires.Add(-time.Hour).Unix(), "exp": expires.Unix(),
		"auth_time": expires.Add(-time.Hour).Unix(),
		"firebase":  map[string]any{"sign_in_provider": "password", "identities": map[string]any{}},
	})
	return header + "." + base64.RawURLEncoding.EncodeToString(claims) + "."
}
