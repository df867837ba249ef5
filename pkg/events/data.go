package events

import "time"

// Each event's data, defined once here and used by its publisher and every consumer. The
// contract is api/events/*.schema.json; TestDataTypesAgreeWithSchemas fails when a field, a
// required field or an enum value is in one and not the other.

// dataTypes is each event type's data (a zero value of its Go type). An envelope of a type not
// in it is invalid.
var dataTypes = map[string]any{
	TypeItemCreated:          ItemData{},
	TypeItemDeleted:          ItemData{},
	TypeSantaSent:            SantaSentData{},
	TypeItemUpdated:          ItemUpdatedData{},
	TypeItemClaimed:          ClaimData{},
	TypeItemUnclaimed:        ClaimData{},
	TypeItemPledged:          PledgeData{},
	TypeItemThanked:          ThanksData{},
	TypeListDeleted:          ListDeletedData{},
	TypeListChanged:          ListChangedData{},
	TypeListFamilies:         ListFamiliesData{},
	TypeSuggestionCreated:    SuggestionCreatedData{},
	TypeListManagersChanged:  ListManagersChangedData{},
	TypeFamilyInvited:        FamilyInvitedData{},
	TypeFamilyMemberJoined:   MemberJoinedData{},
	TypeFamilyMemberLeft:     MemberLeftData{},
	TypeSecretSantaDrawn:     SecretSantaDrawnData{},
	TypeSecretSantaMessage:   SecretSantaMessageData{},
	TypeUserDeleted:          UserDeletedData{},
	TypeUserErased:           UserErasedData{},
	TypeReminderDrawSoon:     DrawSoonData{},
	TypeReminderShopping:     ShoppingData{},
	TypeReminderListEmpty:    ListEmptyData{},
	TypeReminderExchangeSoon: ExchangeSoonData{},
}

// Wishlist's events.
type (
	// ItemData is item.created's and item.deleted's (item.schema.json): the item and the
	// owner's wishlist count after the write, computed in the same transaction so live badges
	// never drift.
	ItemData struct {
		ID            string  `json:"id"`
		Name          string  `json:"name"`
		ImageURL      *string `json:"imageUrl"`
		Category      *string `json:"category"`
		WishlistCount int     `json:"wishlistCount"`
	}
	// SantaSentData is santa.sent's (santa-sent.schema.json).
	SantaSentData struct {
		ID       string  `json:"id"`
		Name     string  `json:"name"`
		ImageURL *string `json:"imageUrl"`
	}
	// ItemUpdatedData is item.updated's (item-updated.schema.json): the owner edited an item.
	ItemUpdatedData struct {
		ID       string  `json:"id"`
		Name     string  `json:"name"`
		ImageURL *string `json:"imageUrl"`
		Category *string `json:"category"`
		ListID   string  `json:"listId"`
		Priority int     `json:"priority"`
		Quantity int     `json:"quantity"`
	}
	// ClaimData is item.claimed's and item.unclaimed's (claim.schema.json). The envelope's
	// userId is the claimer, never the list's owner: these events are the claimer's business
	// only.
	ClaimData struct {
		ClaimerID string `json:"claimerId"`
		ItemID    string `json:"itemId"`
		ItemName  string `json:"itemName"`
		ListID    string `json:"listId"`
		ListName  string `json:"listName"`
		OwnerName string `json:"ownerName"`
		Quantity  int    `json:"quantity"`
		Purchased bool   `json:"purchased"`
		// Reason is item.unclaimed's only (there the envelope schema requires it).
		Reason string `json:"reason,omitempty"`
	}
	// ListDeletedData is list.deleted's (list-deleted.schema.json).
	ListDeletedData struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		ItemCount int    `json:"itemCount"`
	}
	// ListChangedData is list.changed's (list-changed.schema.json): a shared list's items or
	// claims changed, and who opened it in the last 24 hours (never its owner). The envelope's
	// userId is whoever caused the change; Cause is one of ListChangedCauses.
	ListChangedData struct {
		ListID  string   `json:"listId"`
		Viewers []string `json:"viewers"`
		Cause   string   `json:"cause"`
	}
	// ListFamiliesData is list.families' (list-families.schema.json): a list's family sharing
	// as it now stands. The wishlist service writes it, the family service keeps the newest
	// Version per list.
	ListFamiliesData struct {
		ListID    string   `json:"listId"`
		OwnerUID  string   `json:"ownerUid"`
		Name      string   `json:"name"`
		OwnerName string   `json:"ownerName"`
		Token     *string  `json:"token"`
		FamilyIDs []string `json:"familyIds"`
		Version   int64    `json:"version"`
		// RecipientName names whom a list for someone else is for (empty for the owner's own
		// list), RecipientUID the member it is for; ManagedBy are the names of those who keep it.
		RecipientName string   `json:"recipientName,omitempty"`
		RecipientUID  string   `json:"recipientUid,omitempty"`
		ManagedBy     []string `json:"managedBy,omitempty"`
	}
	// SuggestionCreatedData is list.suggestion.created's (suggestion-created.schema.json): a giver
	// suggested a gift on someone's list. The envelope's userId is the suggester; nothing
	// reaches the list's recipient.
	SuggestionCreatedData struct {
		ListID      string `json:"listId"`
		ItemID      string `json:"itemId"`
		Name        string `json:"name"`
		SuggestedBy string `json:"suggestedBy"`
	}
	// ListManagersChangedData is list.managers.changed's (list-managers-changed.schema.json):
	// who keeps a list for someone else now, and who it is for. The envelope's userId is who
	// made the change.
	ListManagersChangedData struct {
		ListID        string   `json:"listId"`
		Managers      []string `json:"managers"`
		RecipientKind string   `json:"recipientKind"`
		RecipientUID  *string  `json:"recipientUid"`
	}
)

// Why a claim ended (ClaimData.Reason): released by the claimer, or the owner removed the
// item or lowered its quantity below the claims (then the claimer gets a notice).
const (
	ClaimReleased        = "released"
	ClaimRemoved         = "removed"
	ClaimQuantityLowered = "quantity_lowered"
)

// PledgeData is item.pledged's (pledge.schema.json): a group gift was started, a pledge set or
// withdrawn, or the group gift cancelled; or (removed) a giver's pledge ended because the list's
// owner removed the item or the list, when the envelope's userId is that pledger, as
// item.unclaimed's is the claimer. Otherwise the envelope's userId is the giver who acted. Amounts are
// decimal strings in the gift's currency. CompletedNow is true on the one event whose pledge
// made the group gift reach its target; Pledgers are then everyone who pledged (each gets a
// group-gift-complete notice). The list's recipient is never among them and never hears of it.
type PledgeData struct {
	ItemID       string   `json:"itemId"`
	ItemName     string   `json:"itemName"`
	ListID       string   `json:"listId"`
	ListName     string   `json:"listName"`
	OwnerName    string   `json:"ownerName"`
	Action       string   `json:"action"`
	Amount       *string  `json:"amount"`
	Currency     string   `json:"currency"`
	Target       string   `json:"target"`
	Pledged      string   `json:"pledged"`
	Complete     bool     `json:"complete"`
	CompletedNow bool     `json:"completedNow"`
	Pledgers     []string `json:"pledgers"`
}

// What a PledgeData reports.
const (
	PledgeStarted   = "started"
	PledgeSet       = "pledged"
	PledgeWithdrawn = "withdrawn"
	PledgeCancelled = "cancelled"
	PledgeRemoved   = "removed"
)

// PledgeActions are every PledgeData.Action.
var PledgeActions = []string{PledgeStarted, PledgeSet, PledgeWithdrawn, PledgeCancelled, PledgeRemoved}

// ThanksData is item.thanked's (thanks.schema.json): after the reveal, the recipient (or a
// manager, for someone without an account) thanked the givers of an item. The envelope's userId
// is who thanked; Givers are the givers of the revealed claims and pledges thanked now, each of
// whom gets a thank-you notice.
type ThanksData struct {
	ItemID        string    `json:"itemId"`
	ItemName      string    `json:"itemName"`
	RecipientName string    `json:"recipientName"`
	Message       string    `json:"message"`
	Givers        []string  `json:"givers"`
	At            time.Time `json:"at"`
}

// ClaimReasons are every ClaimData.Reason.
var ClaimReasons = []string{ClaimReleased, ClaimRemoved, ClaimQuantityLowered}

// ListChangedCauses are the events that make a list.changed.
var ListChangedCauses = []string{TypeItemCreated, TypeItemUpdated, TypeItemDeleted, TypeItemClaimed, TypeItemUnclaimed, TypeListDeleted,
	TypeSuggestionCreated, TypeItemPledged}

// RecipientKinds are whom a list is for (list.managers.changed's recipientKind).
var RecipientKinds = []string{"self", "person", "member"}

// The family service's events. None of them carries a Secret Santa pair.
type (
	// FamilyInvitedData is family.invited's (family-invited.schema.json): an invitation by
	// email, for notification to send.
	FamilyInvitedData struct {
		FamilyID   string    `json:"familyId"`
		FamilyName string    `json:"familyName"`
		InvitedBy  string    `json:"invitedBy"`
		Email      string    `json:"email"`
		URL        string    `json:"url"`
		ExpiresAt  time.Time `json:"expiresAt"`
		// Language is the inviter's app language (a tag such as "de" or "fr-CA"), in which the
		// email is written; empty for none (notification then takes the inviter's settings').
		Language string `json:"language,omitempty"`
	}
	// MemberJoinedData is family.member.joined's (family-member-joined.schema.json); Admins
	// are who to tell. Role is one of MemberRoles.
	MemberJoinedData struct {
		FamilyID    string   `json:"familyId"`
		FamilyName  string   `json:"familyName"`
		UID         string   `json:"uid"`
		DisplayName string   `json:"displayName"`
		Role        string   `json:"role"`
		Admins      []string `json:"admins"`
	}
	// MemberLeftData is family.member.left's (family-member-left.schema.json): the member
	// left (RemovedBy empty) or was removed.
	MemberLeftData struct {
		FamilyID      string `json:"familyId"`
		FamilyName    string `json:"familyName"`
		UID           string `json:"uid"`
		RemovedBy     string `json:"removedBy,omitempty"`
		FamilyDeleted bool   `json:"familyDeleted"`
		DrawCancelled bool   `json:"drawCancelled"`
	}
	// SecretSantaDrawnData is secretsanta.drawn's (secretsanta-drawn.schema.json): who takes
	// part, in uid order, so each can be told their match is ready, and never who gives to
	// whom.
	SecretSantaDrawnData struct {
		FamilyID     string    `json:"familyId"`
		FamilyName   string    `json:"familyName"`
		DrawnAt      time.Time `json:"drawnAt"`
		Participants []string  `json:"participants"`
	}
)

// SecretSantaMessageData is secretsanta.message's (secretsanta-message.schema.json): the
// envelope's userId is the one who receives the message, and With is the conversation from
// their side ("santa": their own Secret Santa wrote; "giftee": their giftee wrote). It carries
// nothing of who the Santa is, nor the text: the receiver reads it from the family service.
type SecretSantaMessageData struct {
	FamilyID   string `json:"familyId"`
	FamilyName string `json:"familyName"`
	MessageID  string `json:"messageId"`
	With       string `json:"with"`
}

// ConversationSides are the values of SecretSantaMessageData.With.
var ConversationSides = []string{"santa", "giftee"}

// MemberRoles are the roles family.member.joined names (the family service's roles).
var MemberRoles = []string{"admin", "member"}

// Accounts.
type (
	// UserDeletedData is user.deleted's (user-deleted.schema.json).
	UserDeletedData struct {
		RequestedAt time.Time `json:"requestedAt"`
	}
	// UserErasedData is user.erased's (user-erased.schema.json); Service is one of
	// ErasingServices.
	UserErasedData struct {
		Service string `json:"service"`
	}
)

// Reminder data (api/events/reminder-*.schema.json). Each names the occasion it is about, so
// the notice says when, and nothing else: the shopping reminder is the claimer's own claims,
// the empty-list reminder counts items, never claims.
type (
	// DrawSoonData is reminder.draw_soon: a family's planned Secret Santa draw is near and
	// the recipient, an admin, has not drawn yet.
	DrawSoonData struct {
		FamilyID   string `json:"familyId"`
		FamilyName string `json:"familyName"`
		DrawOn     string `json:"drawOn"` // YYYY-MM-DD
		DaysLeft   int    `json:"daysLeft"`
	}
	// ExchangeSoonData is reminder.exchange_soon: the family's Secret Santa exchange (when and,
	// if the admin said, where) is near; to each participant of the draw.
	ExchangeSoonData struct {
		FamilyID   string `json:"familyId"`
		FamilyName string `json:"familyName"`
		ExchangeOn string `json:"exchangeOn"` // YYYY-MM-DD
		Place      string `json:"place"`
		DaysLeft   int    `json:"daysLeft"`
	}
	// ShoppingData is reminder.shopping: the recipient's claims of one reveal date that are not
	// marked purchased.
	ShoppingData struct {
		RevealAt     time.Time `json:"revealAt"`
		DaysLeft     int       `json:"daysLeft"`
		NotPurchased int       `json:"notPurchased"`
	}
	// ListEmptyData is reminder.list_empty: the recipient's shared list has no items a month
	// before its reveal date.
	ListEmptyData struct {
		ListID   string    `json:"listId"`
		ListName string    `json:"listName"`
		RevealAt time.Time `json:"revealAt"`
		DaysLeft int       `json:"daysLeft"`
	}
)
