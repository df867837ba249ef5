package service_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
)

type message struct {
	ID, With, From, Text string
	At                   time.Time
}

// circleOf draws names in a family of everyone (the first is its admin) and reads, the way the
// test alone can, who gives to whom: each one's own GET.
func circleOf(t *testing.T, e *env, familyID string, everyone []string) (gives, santaOf map[string]string) {
	t.Helper()
	e.must(http.StatusCreated, "POST", "/api/families/"+familyID+"/secret-santa", everyone[0], map[string]any{"exclusions": [][]string{}}, nil)
	gives, santaOf = map[string]string{}, map[string]string{}
	for _, m := range everyone {
		var got match
		e.must(http.StatusOK, "GET", "/api/families/"+familyID+"/secret-santa", m, nil, &got)
		gives[m], santaOf[got.Assignee.UID] = got.Assignee.UID, m
	}
	return gives, santaOf
}

// messagesOf reads uid's conversations, checking the answer's shape: exactly the five fields,
// and no uid or name of anyone in the family anywhere in it.
func messagesOf(t *testing.T, e *env, familyID, uid string, everyone []string) []message {
	t.Helper()
	code, raw := e.call("GET", "/api/families/"+familyID+"/secret-santa/messages", uid, nil)
	if code != http.StatusOK {
		t.Fatalf("%s's messages: %d %s", uid, code, raw)
	}
	var shapes []map[string]any
	if err := json.Unmarshal(raw, &shapes); err != nil {
		t.Fatalf("%s's messages: %v in %s", uid, err, raw)
	}
	for _, m := range shapes {
		if keys := slices.Sorted(maps.Keys(m)); !slices.Equal(keys, []string{"at", "from", "id", "text", "with"}) {
			t.Fatalf("%s's message has the fields %v: %s", uid, keys, raw)
		}
	}
	for _, who := range everyone {
		if strings.Contains(strings.ToLower(string(raw)), `"`+who) || strings.Contains(string(raw), strings.ToUpper(who[:1])+who[1:]) {
			t.Fatalf("%s's messages name %s: %s", uid, who, raw)
		}
	}
	var out []message
	_ = json.Unmarshal(raw, &out)
	return out
}

func (e *env) send(familyID, uid, to, text string) message {
	e.t.Helper()
	var m message
	e.must(http.StatusCreated, "POST", "/api/families/"+familyID+"/secret-santa/messages", uid, map[string]string{"to": to, "text": text}, &m)
	return m
}

// Each participant writes to their giftee and to their own Santa; every answer, event and
// stored row is then read as a curious giftee, the admin and every other participant would,
// and none of them tells anyone who their Santa is.
func TestSecretSantaConversationsNeverNameTheSanta(t *testing.T) {
	e := start(t)
	everyone := []string{"ann", "ben", "cleo", "dan", "eve"}
	c := e.create("ann", "Smiths")
	for _, m := range everyone[1:] {
		e.join(m, c.Invite.Token)
	}
	base := "/api/families/" + c.ID + "/secret-santa/messages"
	gives, santaOf := circleOf(t, e, c.ID, everyone)

	// Everyone writes to their giftee, then to their Santa; writes of the same moment.
	sent := map[string]message{} // by text
	for _, m := range everyone {
		ms := e.send(c.ID, m, "giftee", "Hi from your Santa to "+gives[m]+"'s giftee slot")
		sent[ms.Text] = ms
	}
	for _, m := range everyone {
		ms := e.send(c.ID, m, "santa", " Thank you, dear Santa! \n")
		if ms.Text != "Thank you, dear Santa!" || ms.From != "me" || ms.With != "santa" {
			t.Fatalf("the 201: %+v", ms)
		}
		sent[m+"→santa"] = ms
	}

	for _, m := range everyone {
		got := messagesOf(t, e, c.ID, m, everyone)
		// The one they wrote to their giftee, the one their giftee wrote them, the one their
		// Santa wrote them and the one they wrote their Santa.
		if len(got) != 4 {
			t.Fatalf("%s has %d messages, want 4: %+v", m, len(got), got)
		}
		byKind := map[string]message{}
		for i, g := range got {
			byKind[g.With+"/"+g.From] = g
			if u, err := uuid.Parse(g.ID); err != nil || u.Version() != 4 {
				t.Fatalf("message id %q is not a random UUID", g.ID)
			}
			if i > 0 && got[i-1].At.After(g.At) {
				t.Fatalf("%s's messages are not oldest first: %+v", m, got)
			}
		}
		// From their Santa: the text that Santa wrote, and its own time as Santa's 201 said.
		fromSanta := sent["Hi from your Santa to "+m+"'s giftee slot"]
		if g := byKind["santa/them"]; g.Text != fromSanta.Text || !g.At.Equal(fromSanta.At) || g.ID != fromSanta.ID {
			t.Fatalf("%s's message from their Santa %+v, sent %+v", m, g, fromSanta)
		}
		if g := byKind["giftee/them"]; g.ID != sent[gives[m]+"→santa"].ID {
			t.Fatalf("%s's message from their giftee %+v", m, g)
		}
		if byKind["giftee/me"].ID == "" || byKind["santa/me"].ID != sent[m+"→santa"].ID {
			t.Fatalf("%s's own messages %+v", m, got)
		}
		// Nobody reads a conversation they are not in: no other message's id or text.
		for _, other := range everyone {
			if other == m || other == santaOf[m] || other == gives[m] {
				continue
			}
			for _, g := range got {
				if g.ID == sent[other+"→santa"].ID {
					t.Fatalf("%s reads %s's message to their Santa", m, other)
				}
			}
		}
	}

	// The family's other answers hold no message and nothing new about pairs.
	for _, m := range everyone {
		for _, path := range []string{"/api/families", "/api/families/" + c.ID, "/api/families/" + c.ID + "/secret-santa"} {
			code, raw := e.call("GET", path, m, nil)
			if code != http.StatusOK || strings.Contains(string(raw), "Santa!") || strings.Contains(string(raw), "giftee slot") {
				t.Fatalf("%s %s: %d %s", m, path, code, raw)
			}
		}
	}

	// The events: each addressed to the receiver, naming only the family, the message and the
	// receiver's side; their time is the message's own.
	byID := map[string]message{}
	for _, m := range sent {
		byID[m.ID] = m
	}
	msgs := familyEvents(t, e, events.TypeSecretSantaMessage)
	if len(msgs) != 10 {
		t.Fatalf("%d secretsanta.message events, want 10", len(msgs))
	}
	for _, env := range msgs {
		conformsToSchema(t, env)
		var d map[string]any
		_ = json.Unmarshal(env.Data, &d)
		m := byID[d["messageId"].(string)]
		if m.ID == "" || !env.OccurredAt.Equal(m.At) || len(d) != 4 || d["familyId"] != c.ID || d["familyName"] != "Smiths" {
			t.Fatalf("event %+v %s for message %+v", env, env.Data, m)
		}
		// To the giftee (from their Santa): userId is the giftee, and nothing names the Santa.
		receiver := env.UserID
		switch d["with"] {
		case "santa":
			if m.With != "giftee" {
				t.Fatalf("a message to the Santa announced as from a Santa: %s", env.Data)
			}
			for _, who := range everyone {
				if who != receiver && strings.Contains(string(env.Data), who) {
					t.Fatalf("the event to %s names %s: %s", receiver, who, env.Data)
				}
			}
		case "giftee":
			if m.With != "santa" || receiver == "" {
				t.Fatalf("event %s for message %+v", env.Data, m)
			}
		default:
			t.Fatalf("event %s", env.Data)
		}
	}

	// Stored: a message row names nobody; its writer is a side of a pair, not a uid.
	rows, err := e.pool.Query(context.Background(), "SELECT row_to_json(m)::text FROM secret_santa_messages m")
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for rows.Next() {
		var row string
		if err := rows.Scan(&row); err != nil {
			t.Fatal(err)
		}
		stored++
		for _, who := range everyone {
			if strings.Contains(row, `"`+who+`"`) {
				t.Fatalf("a stored message names %s: %s", who, row)
			}
		}
	}
	if rows.Err() != nil || stored != 10 {
		t.Fatalf("%d stored messages (%v), want 10", stored, rows.Err())
	}

	// A redraw starts every conversation afresh; writing goes to the new pairs.
	e.must(http.StatusCreated, "POST", "/api/families/"+c.ID+"/secret-santa", "ann", map[string]any{}, nil)
	for _, m := range everyone {
		if got := messagesOf(t, e, c.ID, m, everyone); len(got) != 0 {
			t.Fatalf("after a new draw %s still reads %+v", m, got)
		}
	}
	if err := e.pool.QueryRow(context.Background(), "SELECT count(*) FROM secret_santa_messages").Scan(&stored); err != nil || stored != 0 {
		t.Fatalf("%d messages kept after a new draw (%v)", stored, err)
	}
	e.send(c.ID, "ben", "giftee", "New year, new giftee")
	if got := messagesOf(t, e, c.ID, "ben", everyone); len(got) != 1 || got[0].With != "giftee" {
		t.Fatalf("after the redraw ben reads %+v", got)
	}

	// Someone leaving cancels the draw, and the conversations with it.
	e.must(http.StatusNoContent, "DELETE", "/api/families/"+c.ID+"/members/eve", "eve", nil, nil)
	e.refused(http.StatusNotFound, "no_draw", "GET", base, "ben", nil)
	e.refused(http.StatusNotFound, "no_draw", "POST", base, "ben", map[string]string{"to": "giftee", "text": "Hello?"})
	e.refused(http.StatusNotFound, "not_found", "GET", base, "eve", nil)
}

// Bad input is a clear 4xx in the error shape, never a 500, and nothing is sent.
func TestSecretSantaMessagesRefuseBadInput(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	base := "/api/families/" + c.ID + "/secret-santa/messages"
	e.join("ben", c.Invite.Token)
	e.join("cleo", c.Invite.Token)
	hello := map[string]string{"to": "giftee", "text": "Hello"}

	// No draw yet: 404 no_draw, for writing and reading.
	e.refused(http.StatusNotFound, "no_draw", "GET", base, "ben", nil)
	e.refused(http.StatusNotFound, "no_draw", "POST", base, "ben", hello)
	e.must(http.StatusCreated, "POST", "/api/families/"+c.ID+"/secret-santa", "ann", map[string]any{}, nil)

	fields := func(body any) map[string]string {
		t.Helper()
		code, raw := e.call("POST", base, "ben", body)
		var answer struct {
			Error struct {
				Code, Message string
				Fields        map[string]string
			}
		}
		if err := json.Unmarshal(raw, &answer); err != nil || code != http.StatusUnprocessableEntity ||
			answer.Error.Code != "validation_failed" || answer.Error.Message == "" {
			t.Fatalf("POST %v: %d %s", body, code, raw)
		}
		return answer.Error.Fields
	}
	for _, text := range []string{"", "   \n\t ", strings.Repeat("a", 501), strings.Repeat("é", 501)} {
		if f := fields(map[string]string{"to": "giftee", "text": text}); f["text"] == "" || len(f) != 1 {
			t.Fatalf("text of %d bytes: fields %v", len(text), f)
		}
	}
	if f := fields(map[string]string{"text": "Hello"}); f["to"] == "" {
		t.Fatalf("no to: fields %v", f)
	}
	for _, to := range []string{"santas", "Giftee", "ann", "admin"} {
		if f := fields(map[string]string{"to": to, "text": "Hello"}); f["to"] != `A message goes to "giftee" or "santa".` {
			t.Fatalf("to %q: fields %v", to, f)
		}
	}
	e.refused(http.StatusBadRequest, "wrong_type", "POST", base, "ben", map[string]any{"to": "giftee", "text": 42})
	// 500 characters (of any width) is fine.
	e.send(c.ID, "ben", "giftee", strings.Repeat("é", 500))

	// A stranger, and a member of another family, find no family; someone who joined after
	// the draw has no conversation.
	e.refused(http.StatusNotFound, "not_found", "POST", base, "zed", hello)
	e.refused(http.StatusNotFound, "not_found", "GET", base, "zed", nil)
	e.refused(http.StatusNotFound, "not_found", "GET", "/api/families/not-a-uuid/secret-santa/messages", "ben", nil)
	e.refused(http.StatusNotFound, "not_found", "GET", "/api/families/"+uuid.NewString()+"/secret-santa/messages", "ben", nil)
	e.join("dan", c.Invite.Token)
	e.refused(http.StatusNotFound, "no_draw", "POST", base, "dan", map[string]string{"to": "santa", "text": "Hello"})
	e.refused(http.StatusNotFound, "no_draw", "GET", base, "dan", nil)

	var got []message
	e.must(http.StatusOK, "GET", base, "ben", nil, &got)
	if len(got) != 1 {
		t.Fatalf("ben's messages after refused writes: %+v", got)
	}
}
