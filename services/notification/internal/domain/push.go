package domain

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Subscription is one device's Web Push subscription (the browser's PushSubscription).
type Subscription struct {
	ID       string `json:"id"`
	UserID   string `json:"-"`
	Endpoint string `json:"endpoint"`
	P256dh   string `json:"-"`
	Auth     string `json:"-"`
	// Language is the device's app language (Language of what the app sent): the reminders
	// pushed to it are written in it.
	Language string `json:"language"`
}

// ErrBadSubscription is a subscription the server will not store; its message is the user's.
type ErrBadSubscription struct{ Field, Message string }

func (e *ErrBadSubscription) Error() string { return e.Message }

// maxEndpoint is generous: the push services' endpoints are a few hundred characters.
const maxEndpoint = 1024

// CheckSubscription refuses what can be refused from the subscription alone. An endpoint is
// a URL this server will POST to, so it must be https to a host name or a public address
// (the dialer checks again what the name resolves to); allow lets the local push service of
// development and tests in over plain http.
func CheckSubscription(s Subscription, allow map[netip.AddrPort]bool) error {
	u, err := url.Parse(s.Endpoint)
	if err != nil || s.Endpoint == "" || len(s.Endpoint) > maxEndpoint || u.Host == "" || u.User != nil || u.Fragment != "" {
		return &ErrBadSubscription{"endpoint", "The push endpoint must be an https URL."}
	}
	host := u.Hostname()
	ap, apErr := netip.ParseAddrPort(u.Host)
	switch {
	case apErr == nil && allow[netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())] && (u.Scheme == "http" || u.Scheme == "https"):
		// the configured local push service
	case u.Scheme != "https" || (u.Port() != "" && u.Port() != "443"):
		return &ErrBadSubscription{"endpoint", "The push endpoint must be an https URL."}
	default:
		if a, err := netip.ParseAddr(host); (err == nil && !publicAddr(a)) || (err != nil && !strings.Contains(host, ".")) {
			return &ErrBadSubscription{"endpoint", "The push endpoint must be on the public internet."}
		}
	}
	if b, err := decodeKey(s.P256dh); err != nil || len(b) != 65 || b[0] != 4 {
		return &ErrBadSubscription{"keys.p256dh", "keys.p256dh must be an uncompressed P-256 public key (65 bytes, base64url)."}
	}
	if b, err := decodeKey(s.Auth); err != nil || len(b) != 16 {
		return &ErrBadSubscription{"keys.auth", "keys.auth must be a 16-byte secret (base64url)."}
	}
	return nil
}

func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast()
}

// decodeKey reads base64url with or without padding, as browsers and libraries write it.
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if s == "" {
		return nil, errors.New("empty")
	}
	return base64.RawURLEncoding.DecodeString(s)
}

// PushMessage is what a device's service worker is sent; it shows title and body and opens
// url when the notification is tapped. tag makes a repeated push replace, not add, a
// notification.
type PushMessage struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
	Tag   string `json:"tag"`
	Kind  string `json:"kind"`
}

// Push is how one notice is pushed: the message, how long the push service keeps it for an
// offline device, and how urgently it is delivered (RFC 8030 section 5.3).
type Push struct {
	Message PushMessage
	TTL     time.Duration
	Urgency string
	// Topic (RFC 8030 section 5.4) lets a pending push be replaced by a newer one of the same
	// topic, so a device that was offline gets one, not a pile.
	Topic string
}

// PushOf is the push of a notice to a device whose app speaks lang, or false for notices that
// are not pushed (the badge count, Santa's answer: both are for the device in use).
func PushOf(n Notice, lang string) (Push, bool) {
	p, ok := pushOf(n, lang)
	if ok && Language(lang) != "en" {
		p.Message.Title, p.Message.Body = localizedPush(n, Language(lang), p.Message)
	}
	return p, ok
}

// localizedPush is a notice's title and body in lang, from the emails' texts (the English
// ones, in pushOf, carry the names the notice was made with). Reminders are written in their
// language already.
func localizedPush(n Notice, lang string, en PushMessage) (title, body string) {
	kind, ok := KindOf(n)
	if !ok {
		return en.Title, en.Body
	}
	var d struct {
		FamilyName, DisplayName, ItemName, OwnerName, With, RecipientName, Message string
		Pledge                                                                     bool
	}
	_ = json.Unmarshal(n.Data, &d)
	switch kind {
	case KindThankYou:
		return thankYouPush(lang, d.RecipientName, d.ItemName, d.Message)
	case KindGroupGiftComplete:
		return text(lang, "subject."+kind), text(lang, "line."+kind, "{item}", d.ItemName, "{owner}", d.OwnerName)
	case KindSecretSantaDrawn:
		return text(lang, "subject."+kind), d.FamilyName
	case KindSecretSantaMessage:
		return text(lang, "subject."+kind+"."+d.With), d.FamilyName
	case KindMemberJoined:
		return text(lang, "line."+kind, "{name}", d.DisplayName, "{family}", d.FamilyName), ""
	case KindClaimRemoved:
		if d.ItemName == "" || d.OwnerName == "" {
			return en.Title, en.Body // a notice from before the names were kept
		}
		return text(lang, claimRemovedLine(d.Pledge), "{item}", d.ItemName, "{owner}", d.OwnerName), ""
	case KindListChanged:
		return text(lang, "line."+kind), ""
	}
	return en.Title, en.Body
}

func pushOf(n Notice, lang string) (Push, bool) {
	switch n.Event {
	case EventReminderDrawSoon, EventReminderShopping, EventReminderListEmpty, EventReminderExchangeSoon:
		return reminderPush(n, lang)
	case EventSecretSanta:
		var d SecretSantaData
		if json.Unmarshal(n.Data, &d) != nil || d.FamilyID == "" {
			return Push{}, false
		}
		return Push{Message: PushMessage{Title: SecretSantaMessage, Body: d.FamilyName, URL: "/family/" + d.FamilyID + "/secret-santa",
			Tag: "secret-santa-" + d.FamilyID, Kind: n.Event}, TTL: 7 * 24 * time.Hour, Urgency: "normal", Topic: topic("ss", d.FamilyID)}, true
	case EventSecretSantaMessage:
		var d SecretSantaMessageData
		if json.Unmarshal(n.Data, &d) != nil || d.FamilyID == "" {
			return Push{}, false
		}
		// One tag per conversation: a second message replaces the first on the lock screen.
		return Push{Message: PushMessage{Title: d.Message, Body: d.FamilyName, URL: santaPath(d.FamilyID) + "?messages=" + d.With,
			Tag: "secret-santa-message-" + d.FamilyID + "-" + d.With, Kind: n.Event}, TTL: 3 * 24 * time.Hour, Urgency: "normal",
			Topic: topic("sm", d.FamilyID+d.With)}, true
	case EventThankYou:
		var d ThankYouData
		if json.Unmarshal(n.Data, &d) != nil || d.ItemID == "" {
			return Push{}, false
		}
		title, body := thankYouPush("en", d.RecipientName, d.ItemName, d.Message)
		return Push{Message: PushMessage{Title: title, Body: body, URL: "/gifts/given", Tag: "thank-you-" + d.ItemID, Kind: n.Event},
			TTL: 7 * 24 * time.Hour, Urgency: "normal", Topic: topic("ty", d.ItemID)}, true
	case EventGroupGiftComplete:
		var d GroupGiftCompleteData
		if json.Unmarshal(n.Data, &d) != nil || d.ItemID == "" {
			return Push{}, false
		}
		return Push{Message: PushMessage{Title: text("en", "subject."+KindGroupGiftComplete),
			Body: text("en", "line."+KindGroupGiftComplete, "{item}", d.ItemName, "{owner}", d.OwnerName), URL: "/claims",
			Tag: "group-gift-complete-" + d.ItemID, Kind: n.Event}, TTL: 7 * 24 * time.Hour, Urgency: "normal", Topic: topic("gc", d.ItemID)}, true
	case EventFamilyMemberJoined:
		var d MemberJoinedData
		if json.Unmarshal(n.Data, &d) != nil {
			return Push{}, false
		}
		return Push{Message: PushMessage{Title: d.Message, Body: d.FamilyName, URL: "/family",
			Tag: "joined-" + d.FamilyID + "-" + d.UID, Kind: n.Event}, TTL: 3 * 24 * time.Hour, Urgency: "low", Topic: topic("fj", d.FamilyID+d.UID)}, true
	case EventClaimRemoved:
		var d ClaimRemovedData
		if json.Unmarshal(n.Data, &d) != nil {
			return Push{}, false
		}
		title := "A gift you claimed was removed"
		if d.Pledge {
			title = "A gift you were giving together was removed"
		}
		return Push{Message: PushMessage{Title: title, Body: d.Message, URL: "/claims",
			Tag: "claim-removed-" + d.ItemID, Kind: n.Event}, TTL: 7 * 24 * time.Hour, Urgency: "normal", Topic: topic("cr", d.ItemID)}, true
	case EventSharedListChanged:
		var d SharedListData
		if json.Unmarshal(n.Data, &d) != nil {
			return Push{}, false
		}
		// Only which list: a viewer reads what changed from the list itself.
		return Push{Message: PushMessage{Title: "A wishlist you follow changed", Body: "Open it to see what is new.", URL: "/family",
			Tag: "list-" + d.ListID, Kind: n.Event}, TTL: 24 * time.Hour, Urgency: "low", Topic: topic("lc", d.ListID)}, true
	}
	return Push{}, false
}

// maxPushMessage is how much of a thank-you message a push carries (a push's payload is at
// most 4 KB, and a lock screen shows a few lines); the app shows all of it.
const maxPushMessage = 240

// thankYouPush is a thank-you's title ("Grandpa thanked you for Red scarf") and body (the
// message, shortened to what a push carries) in lang.
func thankYouPush(lang, recipient, item, message string) (title, body string) {
	if r := []rune(message); len(r) > maxPushMessage {
		message = strings.TrimSpace(string(r[:maxPushMessage-1])) + "…"
	}
	return text(lang, "subject."+KindThankYou, "{recipient}", recipient, "{item}", item), message
}

// topic is a Topic header value (at most 32 URL-safe base64 characters): a kind and a hash of
// what the notice is about, so two notices about different things never replace each other.
func topic(kind, about string) string {
	sum := sha256.Sum256([]byte(about))
	return kind + base64.RawURLEncoding.EncodeToString(sum[:])[:30]
}
