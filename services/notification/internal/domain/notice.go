// Package domain turns product events into the notices a user's devices are shown.
package domain

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
)

// SantaMessage is what every open device shows after a gift request (docs/spec.md, section 2,
// "Shared shell").
const SantaMessage = "Santa received your gift request!"

// Server-Sent Event names the web app listens for.
const (
	EventHello         = "hello"
	EventWishlistCount = "wishlist-count"
	EventSanta         = "santa"
	// EventSharedListChanged tells a recent viewer of a shared list to read it again.
	EventSharedListChanged = "shared-list-changed"
	// EventClaimRemoved tells a claimer that the gift they claimed is gone from the list.
	EventClaimRemoved = "claim-removed"
	// EventSecretSanta tells each participant of a draw that their match is ready; it never
	// says who it is (they read it from the family service, which answers only their own).
	EventSecretSanta = "secret-santa"
	// EventFamilyMemberJoined tells a family's admins that someone joined.
	EventFamilyMemberJoined = "family-member-joined"
	// EventSecretSantaMessage tells one side of a Secret Santa conversation that the other
	// wrote; to a giftee, the writer is only ever "your Secret Santa".
	EventSecretSantaMessage = "secret-santa-message"
	// EventThankYou tells a giver that the recipient of a revealed gift thanked them.
	EventThankYou = "thank-you"
	// EventGroupGiftComplete tells everyone who pledged to a group gift that the pledges
	// reached its target. The list's recipient never gets it.
	EventGroupGiftComplete = "group-gift-complete"
)

// ThankYouData is the data of thank-you: the item, who thanked, and their message (theirs to
// write to their givers; only revealed gifts are ever thanked).
type ThankYouData struct {
	ItemID        string `json:"itemId"`
	ItemName      string `json:"itemName"`
	RecipientName string `json:"recipientName"`
	Message       string `json:"message"`
}

// GroupGiftCompleteData is the data of group-gift-complete: which item, on which list, for
// whom. Nothing of the amounts nor of the other pledgers: the shared list shows those.
type GroupGiftCompleteData struct {
	ItemID    string `json:"itemId"`
	ItemName  string `json:"itemName"`
	ListID    string `json:"listId"`
	ListName  string `json:"listName"`
	OwnerName string `json:"ownerName"`
}

// The secret-santa-message notice's texts, by the conversation from the receiver's side.
const (
	MessageFromSantaText  = "Your Secret Santa sent you a message"
	MessageFromGifteeText = "Your giftee sent you a message"
)

// SecretSantaMessageData is the data of secret-santa-message: which family and which
// conversation ("santa": the receiver's own Secret Santa wrote; "giftee": their giftee did).
// Never the text, and nothing of the writer: no uid, name, email or avatar.
type SecretSantaMessageData struct {
	Message    string `json:"message"`
	FamilyID   string `json:"familyId"`
	FamilyName string `json:"familyName"`
	With       string `json:"with"`
}

// SecretSantaMessage is the secret-santa notice's text.
const SecretSantaMessage = "Your Secret Santa match is ready"

// SecretSantaData is the data of secret-santa: which family, nothing of the match.
type SecretSantaData struct {
	Message    string `json:"message"`
	FamilyID   string `json:"familyId"`
	FamilyName string `json:"familyName"`
}

// MemberJoinedData is the data of family-member-joined.
type MemberJoinedData struct {
	Message     string `json:"message"`
	FamilyID    string `json:"familyId"`
	FamilyName  string `json:"familyName"`
	UID         string `json:"uid"`
	DisplayName string `json:"displayName"`
}

// SharedListData is the data of shared-list-changed: only which list, nothing of why.
type SharedListData struct {
	ListID string `json:"listId"`
}

// ClaimRemovedData is the data of claim-removed.
type ClaimRemovedData struct {
	Message string `json:"message"`
	ItemID  string `json:"itemId"`
	ListID  string `json:"listId"`
	// ItemName and OwnerName let an email say it in the user's language.
	ItemName  string `json:"itemName,omitempty"`
	OwnerName string `json:"ownerName,omitempty"`
	// Pledge: what ended was a pledge to a group gift, not a claim.
	Pledge bool `json:"pledge,omitempty"`
}

// claimRemovedLine is the key of a removed claim's or pledge's line in the notices' texts.
func claimRemovedLine(pledge bool) string {
	if pledge {
		return "line." + KindClaimRemoved + ".pledge"
	}
	return "line." + KindClaimRemoved
}

// Notice is one stored notification; Seq orders a user's notices and is the SSE event id.
type Notice struct {
	Seq        int64           `json:"id"`
	EventID    string          `json:"-"`
	UserID     string          `json:"-"`
	Event      string          `json:"event"`
	Data       json.RawMessage `json:"data"`
	OccurredAt time.Time       `json:"occurredAt"`
}

// CountData is the data of a wishlist-count event.
type CountData struct {
	Count  int    `json:"count"`
	ItemID string `json:"itemId"`
	Cause  string `json:"cause"`
}

// SantaData is the data of a santa event.
type SantaData struct {
	Message string `json:"message"`
	ItemID  string `json:"itemId"`
	Name    string `json:"name"`
}

// ErrMalformed marks an event whose data cannot become a notice; it will never succeed.
var ErrMalformed = errors.New("malformed event data")

// NoticesFromEvent builds the notices of any product event: none, one, or (list.changed) one
// per viewer. Every notice carries its own event id, so a redelivery stores nothing twice.
//
// The secrecy promise lives here too: item.claimed makes no notice at all, item.unclaimed
// only the claimer's (its envelope's userId is the claimer, never the list's owner), and
// list.changed only its viewers', among whom the wishlist never counts the owner.
func NoticesFromEvent(env events.Envelope) ([]Notice, error) {
	if _, err := uuid.Parse(env.ID); err != nil {
		return nil, fmt.Errorf("%w: event id %q is not a UUID", ErrMalformed, env.ID)
	}
	switch env.Type {
	case events.TypeItemUpdated, events.TypeItemClaimed, events.TypeListDeleted,
		events.TypeFamilyInvited, events.TypeFamilyMemberLeft, events.TypeListFamilies,
		events.TypeUserDeleted, events.TypeUserErased,
		// A suggestion reaches givers as list.changed; nobody else hears of it.
		events.TypeSuggestionCreated, events.TypeListManagersChanged:
		return nil, nil
	case events.TypeReminderDrawSoon, events.TypeReminderShopping, events.TypeReminderListEmpty, events.TypeReminderExchangeSoon:
		return reminderNotice(env)
	case events.TypeSecretSantaDrawn:
		var d events.SecretSantaDrawnData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.FamilyID == "" {
			return nil, fmt.Errorf("%w: secretsanta.drawn needs a familyId", ErrMalformed)
		}
		data, err := json.Marshal(SecretSantaData{Message: SecretSantaMessage, FamilyID: d.FamilyID, FamilyName: d.FamilyName})
		if err != nil {
			return nil, err
		}
		return perUser(env, d.Participants, "", EventSecretSanta, data), nil
	case events.TypeSecretSantaMessage:
		var d events.SecretSantaMessageData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.FamilyID == "" || (d.With != "santa" && d.With != "giftee") {
			return nil, fmt.Errorf("%w: secretsanta.message needs a familyId and with (santa or giftee)", ErrMalformed)
		}
		text := MessageFromGifteeText
		if d.With == "santa" {
			text = MessageFromSantaText
		}
		// Built from named fields only, so nothing else the event might carry reaches the notice.
		data, err := json.Marshal(SecretSantaMessageData{Message: text, FamilyID: d.FamilyID, FamilyName: d.FamilyName, With: d.With})
		if err != nil {
			return nil, err
		}
		return []Notice{{EventID: env.ID, UserID: env.UserID, OccurredAt: env.OccurredAt, Event: EventSecretSantaMessage, Data: data}}, nil
	case events.TypeItemThanked:
		var d events.ThanksData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.ItemID == "" || d.Message == "" || len(d.Givers) == 0 {
			return nil, fmt.Errorf("%w: item.thanked needs an itemId, a message and givers", ErrMalformed)
		}
		// Named fields only; each giver gets it, and nobody else (the one who thanked only when
		// they are a giver too).
		data, err := json.Marshal(ThankYouData{ItemID: d.ItemID, ItemName: d.ItemName, RecipientName: d.RecipientName, Message: d.Message})
		if err != nil {
			return nil, err
		}
		return perUser(env, d.Givers, "", EventThankYou, data), nil
	case events.TypeItemPledged:
		var d events.PledgeData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.ItemID == "" {
			return nil, fmt.Errorf("%w: item.pledged needs an itemId", ErrMalformed)
		}
		// A pledge that ended because the owner removed the item tells its pledger, as a claim
		// would (the event is the pledger's own).
		if d.Action == events.PledgeRemoved {
			data, err := json.Marshal(ClaimRemovedData{Message: RemovedMessage(d.ItemName, d.OwnerName), ItemID: d.ItemID, ListID: d.ListID,
				ItemName: d.ItemName, OwnerName: d.OwnerName, Pledge: true})
			return []Notice{{EventID: env.ID, UserID: env.UserID, OccurredAt: env.OccurredAt, Event: EventClaimRemoved, Data: data}}, err
		}
		// Every other pledge reaches the givers as list.changed; only the one that completed the
		// group gift tells its pledgers, and only them: the recipient is never among them.
		if !d.CompletedNow {
			return nil, nil
		}
		data, err := json.Marshal(GroupGiftCompleteData{ItemID: d.ItemID, ItemName: d.ItemName, ListID: d.ListID, ListName: d.ListName,
			OwnerName: d.OwnerName})
		if err != nil {
			return nil, err
		}
		return perUser(env, d.Pledgers, "", EventGroupGiftComplete, data), nil
	case events.TypeFamilyMemberJoined:
		var d events.MemberJoinedData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.FamilyID == "" || d.UID == "" {
			return nil, fmt.Errorf("%w: family.member.joined needs a familyId and a uid", ErrMalformed)
		}
		data, err := json.Marshal(MemberJoinedData{Message: fmt.Sprintf("%s joined %s", d.DisplayName, d.FamilyName),
			FamilyID: d.FamilyID, FamilyName: d.FamilyName, UID: d.UID, DisplayName: d.DisplayName})
		if err != nil {
			return nil, err
		}
		return perUser(env, d.Admins, d.UID, EventFamilyMemberJoined, data), nil
	case events.TypeItemUnclaimed:
		var d events.ClaimData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.ClaimerID != env.UserID || d.ItemID == "" {
			return nil, fmt.Errorf("%w: item.unclaimed needs the claimer as userId and an itemId", ErrMalformed)
		}
		if d.Reason != events.ClaimRemoved && d.Reason != events.ClaimQuantityLowered {
			return nil, nil // the claimer released it themselves
		}
		data, err := json.Marshal(ClaimRemovedData{Message: RemovedMessage(d.ItemName, d.OwnerName), ItemID: d.ItemID, ListID: d.ListID,
			ItemName: d.ItemName, OwnerName: d.OwnerName})
		return []Notice{{EventID: env.ID, UserID: env.UserID, OccurredAt: env.OccurredAt, Event: EventClaimRemoved, Data: data}}, err
	case events.TypeListChanged:
		var d events.ListChangedData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.ListID == "" {
			return nil, fmt.Errorf("%w: list.changed needs a listId", ErrMalformed)
		}
		data, err := json.Marshal(SharedListData{ListID: d.ListID})
		if err != nil {
			return nil, err
		}
		base := uuid.MustParse(env.ID)
		var out []Notice
		for _, v := range d.Viewers {
			if v == "" {
				continue
			}
			out = append(out, Notice{EventID: uuid.NewSHA1(base, []byte(v)).String(), UserID: v,
				OccurredAt: env.OccurredAt, Event: EventSharedListChanged, Data: data})
		}
		return out, nil
	}
	n, err := FromEvent(env)
	if err != nil {
		return nil, err
	}
	return []Notice{n}, nil
}

// perUser makes one notice per user (but skip), each with an id derived from the event's and
// the user, so a redelivery stores nothing twice; a user named twice gets one.
func perUser(env events.Envelope, users []string, skip, event string, data json.RawMessage) []Notice {
	base := uuid.MustParse(env.ID)
	var out []Notice
	seen := map[string]bool{}
	for _, u := range users {
		if u == "" || u == skip || seen[u] {
			continue
		}
		seen[u] = true
		out = append(out, Notice{EventID: uuid.NewSHA1(base, []byte(u)).String(), UserID: u,
			OccurredAt: env.OccurredAt, Event: event, Data: data})
	}
	return out
}

// RemovedMessage is the claimer's notice when the owner removes a claimed gift.
func RemovedMessage(itemName, ownerName string) string {
	if ownerName == "" {
		ownerName = "someone"
	}
	return fmt.Sprintf("%s was removed from %s's list", itemName, ownerName)
}

// FromEvent builds the notice of a product event.
func FromEvent(env events.Envelope) (Notice, error) {
	n := Notice{EventID: env.ID, UserID: env.UserID, OccurredAt: env.OccurredAt}
	// The event id is what makes a redelivery a no-op; every producer makes it a UUID.
	if _, err := uuid.Parse(env.ID); err != nil {
		return Notice{}, fmt.Errorf("%w: event id %q is not a UUID", ErrMalformed, env.ID)
	}
	var err error
	switch env.Type {
	case events.TypeItemCreated, events.TypeItemDeleted:
		var d struct {
			events.ItemData
			// Shadows ItemData's, so that a missing count is told from a count of 0.
			WishlistCount *int `json:"wishlistCount"`
		}
		if err := json.Unmarshal(env.Data, &d); err != nil || d.ID == "" || d.WishlistCount == nil || *d.WishlistCount < 0 {
			return Notice{}, fmt.Errorf("%w: %s needs id and wishlistCount", ErrMalformed, env.Type)
		}
		n.Event = EventWishlistCount
		n.Data, err = json.Marshal(CountData{Count: *d.WishlistCount, ItemID: d.ID, Cause: env.Type})
	case events.TypeSantaSent:
		var d events.SantaSentData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.ID == "" {
			return Notice{}, fmt.Errorf("%w: santa.sent needs id", ErrMalformed)
		}
		n.Event = EventSanta
		n.Data, err = json.Marshal(SantaData{Message: SantaMessage, ItemID: d.ID, Name: d.Name})
	default:
		return Notice{}, fmt.Errorf("%w: unknown type %q", ErrMalformed, env.Type)
	}
	return n, err
}

// Count is the wishlist count of a wishlist-count notice.
func (n Notice) Count() (int, bool) {
	if n.Event != EventWishlistCount {
		return 0, false
	}
	var d CountData
	if json.Unmarshal(n.Data, &d) != nil {
		return 0, false
	}
	return d.Count, true
}

// WithNewestCount applies "the badge never steps back to an older count". known is the count
// of the user's latest-occurred count notice stored so far, which occurred at knownAt. A count
// event that occurred before it is handled late (it was retried after a failure, or another
// replica was faster), so its count is out of date: its notice says what happened (the item
// and the cause) with the newer count. Other notices are returned as they are.
func (n Notice) WithNewestCount(known int, knownAt time.Time) Notice {
	if n.Event != EventWishlistCount || !knownAt.After(n.OccurredAt) {
		return n
	}
	var d CountData
	if json.Unmarshal(n.Data, &d) != nil {
		return n
	}
	d.Count = known
	if raw, err := json.Marshal(d); err == nil {
		n.Data = raw
	}
	return n
}
