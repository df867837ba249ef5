package events

import "time"

// Each event's data, defined once here and used by its publisher and every consumer. The
// contract other teams read, api/events/*.schema.json, is written from these types by
// tools/apigen (`make generate`): a type's doc comment is its schema's description, a field's
// its property's, the jsonschema tags the constraints JSON cannot infer from Go (formats,
// lengths, ranges, patterns; `nullable` on every pointer), and Enums the values a string takes.

// DataSchema is one event type's data: a zero value of its Go type, the schema file under
// api/events written from that type (event types of one type share it), and the data fields
// the envelope requires for this event type only.
type DataSchema struct {
	Type     string
	Data     any
	File     string
	Requires []string
}

// DataSchemas are every event type's data, in the order the envelope's schema lists them. An
// envelope of a type not in it is invalid.
var DataSchemas = []DataSchema{
	{Type: TypeItemCreated, Data: ItemData{}, File: "item.schema.json"},
	{Type: TypeItemDeleted, Data: ItemData{}, File: "item.schema.json"},
	{Type: TypeSantaSent, Data: SantaSentData{}, File: "santa-sent.schema.json"},
	{Type: TypeItemUpdated, Data: ItemUpdatedData{}, File: "item-updated.schema.json"},
	{Type: TypeItemClaimed, Data: ClaimData{}, File: "claim.schema.json"},
	{Type: TypeItemUnclaimed, Data: ClaimData{}, File: "claim.schema.json", Requires: []string{"reason"}},
	{Type: TypeItemPledged, Data: PledgeData{}, File: "pledge.schema.json"},
	{Type: TypeItemThanked, Data: ThanksData{}, File: "thanks.schema.json"},
	{Type: TypeListDeleted, Data: ListDeletedData{}, File: "list-deleted.schema.json"},
	{Type: TypeListChanged, Data: ListChangedData{}, File: "list-changed.schema.json"},
	{Type: TypeListFamilies, Data: ListFamiliesData{}, File: "list-families.schema.json"},
	{Type: TypeSuggestionCreated, Data: SuggestionCreatedData{}, File: "suggestion-created.schema.json"},
	{Type: TypeListManagersChanged, Data: ListManagersChangedData{}, File: "list-managers-changed.schema.json"},
	{Type: TypeFamilyInvited, Data: FamilyInvitedData{}, File: "family-invited.schema.json"},
	{Type: TypeFamilyMemberJoined, Data: MemberJoinedData{}, File: "family-member-joined.schema.json"},
	{Type: TypeFamilyMemberLeft, Data: MemberLeftData{}, File: "family-member-left.schema.json"},
	{Type: TypeSecretSantaDrawn, Data: SecretSantaDrawnData{}, File: "secretsanta-drawn.schema.json"},
	{Type: TypeSecretSantaMessage, Data: SecretSantaMessageData{}, File: "secretsanta-message.schema.json"},
	{Type: TypeUserDeleted, Data: UserDeletedData{}, File: "user-deleted.schema.json"},
	{Type: TypeUserErased, Data: UserErasedData{}, File: "user-erased.schema.json"},
	{Type: TypeReminderDrawSoon, Data: DrawSoonData{}, File: "reminder-draw-soon.schema.json"},
	{Type: TypeReminderShopping, Data: ShoppingData{}, File: "reminder-shopping.schema.json"},
	{Type: TypeReminderListEmpty, Data: ListEmptyData{}, File: "reminder-list-empty.schema.json"},
	{Type: TypeReminderExchangeSoon, Data: ExchangeSoonData{}, File: "reminder-exchange-soon.schema.json"},
}

// dataTypes is DataSchemas by event type, for Validate.
var dataTypes = func() map[string]any {
	m := make(map[string]any, len(DataSchemas))
	for _, d := range DataSchemas {
		m[d.Type] = d.Data
	}
	return m
}()

// Wishlist's events.
type (
	// ItemData is item.created's and item.deleted's data: the item that was added or removed,
	// and the owner's wishlist count after the write (computed in the same transaction, so live
	// badges never drift).
	ItemData struct {
		ID   string `json:"id" jsonschema:"format=uuid"`
		Name string `json:"name" jsonschema:"minLength=3,maxLength=100"`
		// /media/... for stored photos; media deletes them on item.deleted
		ImageURL      *string `json:"imageUrl" jsonschema:"nullable"`
		Category      *string `json:"category" jsonschema:"nullable"`
		WishlistCount int     `json:"wishlistCount" jsonschema:"minimum=0"`
	}
	// SantaSentData is santa.sent's data: a gift request sent to Santa; notification shows
	// 'Santa received your gift request!' on every open device of the user.
	SantaSentData struct {
		ID       string  `json:"id" jsonschema:"format=uuid"`
		Name     string  `json:"name" jsonschema:"minLength=3"`
		ImageURL *string `json:"imageUrl" jsonschema:"nullable"`
	}
	// ItemUpdatedData is item.updated's data: the owner edited an item (PATCH
	// /api/wishlist/{id}). The envelope's userId is the owner. Never caused by a claim.
	ItemUpdatedData struct {
		ID       string  `json:"id" jsonschema:"format=uuid"`
		Name     string  `json:"name" jsonschema:"minLength=3,maxLength=100"`
		ImageURL *string `json:"imageUrl" jsonschema:"nullable"`
		Category *string `json:"category" jsonschema:"nullable"`
		ListID   string  `json:"listId" jsonschema:"format=uuid"`
		Priority int     `json:"priority" jsonschema:"minimum=1,maximum=3"`
		Quantity int     `json:"quantity" jsonschema:"minimum=1,maximum=99"`
	}
	// ClaimData is item.claimed's and item.unclaimed's data: a claim was set (item.claimed)
	// or ended (item.unclaimed). The envelope's userId is the claimer and equals claimerId:
	// these events belong to the claimer and never reach the list owner's stream or notices.
	// reason (item.unclaimed only): released by the claimer, or removed / quantity_lowered by
	// the owner, when the claimer is told '… was removed from …'s list'.
	ClaimData struct {
		ClaimerID string `json:"claimerId" jsonschema:"minLength=1"`
		ItemID    string `json:"itemId" jsonschema:"format=uuid"`
		ItemName  string `json:"itemName"`
		ListID    string `json:"listId" jsonschema:"format=uuid"`
		ListName  string `json:"listName"`
		OwnerName string `json:"ownerName"`
		Quantity  int    `json:"quantity" jsonschema:"minimum=1,maximum=99"`
		Purchased bool   `json:"purchased"`
		// item.unclaimed's only (there the envelope requires it)
		Reason string `json:"reason,omitempty"`
	}
	// ListDeletedData is list.deleted's data: the owner deleted a list; each of its items had
	// its own item.deleted in the same transaction.
	ListDeletedData struct {
		ID        string `json:"id" jsonschema:"format=uuid"`
		Name      string `json:"name" jsonschema:"minLength=1,maxLength=60"`
		ItemCount int    `json:"itemCount" jsonschema:"minimum=0"`
	}
	// ListChangedData is list.changed's data: a shared list's items or claims changed. viewers
	// are the signed-in non-owners who opened it in the last 24 hours; notification sends each
	// of them shared-list-changed {listId}. The list's recipient (its owner, or the member it
	// is for) is never a viewer; a list's managers always are. The envelope's userId is
	// whoever caused the change.
	ListChangedData struct {
		ListID  string   `json:"listId" jsonschema:"format=uuid"`
		Viewers []string `json:"viewers" jsonschema:"minItems=1,minLength=1"`
		Cause   string   `json:"cause"`
	}
	// ListFamiliesData is list.families' data: a list's sharing with families as it now
	// stands, published by wishlist (which owns familyIds) whenever a list that is or was
	// shared with a family changes: familyIds set, renamed, its link rotated or revoked
	// (revoking also ends family sharing), deleted (familyIds empty), or its owner left a
	// family or the family was deleted. family keeps the newest version per list (a snapshot,
	// so a duplicate or an older redelivery changes nothing) and answers it in GET
	// /api/families. The envelope's userId is the list's owner. Never carries claims.
	ListFamiliesData struct {
		ListID    string `json:"listId" jsonschema:"format=uuid"`
		OwnerUID  string `json:"ownerUid" jsonschema:"minLength=1"`
		Name      string `json:"name" jsonschema:"minLength=1,maxLength=60"`
		OwnerName string `json:"ownerName"`
		// The list's share token; never null while familyIds is not empty
		Token     *string  `json:"token" jsonschema:"nullable,minLength=1"`
		FamilyIDs []string `json:"familyIds" jsonschema:"uniqueItems=true,format=uuid"`
		// Grows with every change of the list's family sharing; older versions are ignored
		Version int64 `json:"version" jsonschema:"minimum=1"`
		// Whom a list for someone else is for; absent for the owner's own list
		RecipientName string `json:"recipientName,omitempty" jsonschema:"maxLength=40"`
		// The member a list for someone else is for (their Secret Santa is shown it); absent
		// otherwise
		RecipientUID string `json:"recipientUid,omitempty" jsonschema:"minLength=1"`
		// The names of the people who keep a list for someone else; absent for the owner's
		// own list
		ManagedBy []string `json:"managedBy,omitempty"`
	}
	// SuggestionCreatedData is list.suggestion.created's data: a giver suggested a gift on
	// someone's shared list (docs/family.md: suggestions). The envelope's userId is the
	// suggester. The list's recipient never hears of it: the givers who follow the list get
	// shared-list-changed through list.changed, and nothing else is sent.
	SuggestionCreatedData struct {
		ListID string `json:"listId" jsonschema:"format=uuid"`
		ItemID string `json:"itemId" jsonschema:"format=uuid"`
		Name   string `json:"name" jsonschema:"minLength=1"`
		// The suggester's name as the givers see it
		SuggestedBy string `json:"suggestedBy"`
	}
	// ListManagersChangedData is list.managers.changed's data: who keeps a list for someone
	// else now (docs/family.md: lists for someone else): a manager added or removed, a manager
	// who left a family they shared with the list's keeper, a list handed over to its
	// recipient's account. The envelope's userId is whoever made the change. Never carries
	// claims or suggestions.
	ListManagersChangedData struct {
		ListID string `json:"listId" jsonschema:"format=uuid"`
		// The managers' uids
		Managers      []string `json:"managers" jsonschema:"minLength=1"`
		RecipientKind string   `json:"recipientKind"`
		// The member the list is for; null for a person without an account
		RecipientUID *string `json:"recipientUid" jsonschema:"nullable"`
	}
)

// Enums are ClaimData's fields that take only listed values, by JSON name (every Enums method
// here becomes the schema's enum, so the constants are the one list).
func (ClaimData) Enums() map[string][]string { return map[string][]string{"reason": ClaimReasons} }

// Enums are ListChangedData's fields that take only listed values, by JSON name.
func (ListChangedData) Enums() map[string][]string {
	return map[string][]string{"cause": ListChangedCauses}
}

// Enums are ListManagersChangedData's fields that take only listed values, by JSON name.
func (ListManagersChangedData) Enums() map[string][]string {
	return map[string][]string{"recipientKind": RecipientKinds}
}

// Why a claim ended (ClaimData.Reason): released by the claimer, or the owner removed the
// item or lowered its quantity below the claims (then the claimer gets a notice).
const (
	ClaimReleased        = "released"
	ClaimRemoved         = "removed"
	ClaimQuantityLowered = "quantity_lowered"
)

// PledgeData is item.pledged's data: a group gift on a shared item was started, a pledge set
// or withdrawn, or the group gift cancelled (docs/family.md: giving together); or (removed) a
// pledge ended because the list's owner removed the item or the list, when the envelope's
// userId is that pledger, who is told as a claimer would be ('… was removed from …'s list').
// Otherwise the envelope's userId is the giver who acted. Amounts are exact decimal strings in
// the gift's currency (never floating point). completedNow is true on exactly one event: the
// pledge that made the pledges reach the target; pledgers then lists everyone who pledged,
// each of whom gets a group-gift-complete notice. It never reaches the list's recipient: the
// givers who follow the list get shared-list-changed through list.changed.
type PledgeData struct {
	ItemID   string `json:"itemId" jsonschema:"format=uuid"`
	ItemName string `json:"itemName"`
	ListID   string `json:"listId" jsonschema:"format=uuid"`
	ListName string `json:"listName"`
	// Whom the gift is for, as the givers see them
	OwnerName string `json:"ownerName"`
	Action    string `json:"action"`
	// The giver's pledge after the change; null when withdrawn, cancelled or started without
	// one
	Amount       *string  `json:"amount" jsonschema:"nullable,pattern=^[0-9]+(\\.[0-9]{1\\,3})?$"`
	Currency     string   `json:"currency" jsonschema:"pattern=^[A-Z]{3}$"`
	Target       string   `json:"target" jsonschema:"pattern=^[0-9]+(\\.[0-9]{1\\,3})?$"`
	Pledged      string   `json:"pledged" jsonschema:"pattern=^[0-9]+(\\.[0-9]{1\\,3})?$"`
	Complete     bool     `json:"complete"`
	CompletedNow bool     `json:"completedNow"`
	Pledgers     []string `json:"pledgers" jsonschema:"minLength=1"`
}

// Enums are PledgeData's fields that take only listed values, by JSON name.
func (PledgeData) Enums() map[string][]string { return map[string][]string{"action": PledgeActions} }

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

// ThanksData is item.thanked's data: after the reveal date of its claims, the recipient of an
// item (or a manager, for a list kept for someone without an account) thanked its givers
// (docs/family.md: thanks). The envelope's userId is who thanked. givers are the givers of the
// revealed claims and pledges thanked now; each gets a thank-you notice. Nothing secret is in
// it: only revealed gifts are ever thanked.
type ThanksData struct {
	ItemID        string    `json:"itemId" jsonschema:"format=uuid"`
	ItemName      string    `json:"itemName"`
	RecipientName string    `json:"recipientName"`
	Message       string    `json:"message" jsonschema:"minLength=1,maxLength=500"`
	Givers        []string  `json:"givers" jsonschema:"minItems=1,minLength=1"`
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
	// FamilyInvitedData is family.invited's data: an admin invited someone by email;
	// notification sends the invitation. Link-only invitations make no event. The envelope's
	// userId is the admin who invited.
	FamilyInvitedData struct {
		FamilyID   string `json:"familyId" jsonschema:"format=uuid"`
		FamilyName string `json:"familyName" jsonschema:"minLength=1,maxLength=60"`
		// the inviter's display name
		InvitedBy string `json:"invitedBy" jsonschema:"minLength=1"`
		Email     string `json:"email" jsonschema:"format=email"`
		// the accept page, relative to the web app's origin
		URL       string    `json:"url" jsonschema:"pattern=^/join/[A-Za-z0-9_-]{22\\,}$"`
		ExpiresAt time.Time `json:"expiresAt"`
		// the inviter's app language (a tag such as "de" or "fr-CA"; or their browser's
		// first), in which the email is written; absent: the inviter's notification settings'
		// language
		Language string `json:"language,omitempty" jsonschema:"pattern=^[A-Za-z]{2\\,3}(-[A-Za-z0-9]{1\\,8}){0\\,3}$"`
	}
	// MemberJoinedData is family.member.joined's data: someone accepted an invitation (role
	// member), or made the family (role admin: its first member). The envelope's userId is
	// the new member; admins are who to tell (notification never tells the new member about
	// themselves). wishlist keeps its projection of memberships from this and
	// family.member.left.
	MemberJoinedData struct {
		FamilyID    string   `json:"familyId" jsonschema:"format=uuid"`
		FamilyName  string   `json:"familyName" jsonschema:"minLength=1,maxLength=60"`
		UID         string   `json:"uid" jsonschema:"minLength=1"`
		DisplayName string   `json:"displayName" jsonschema:"minLength=1"`
		Role        string   `json:"role"`
		Admins      []string `json:"admins" jsonschema:"minItems=1,minLength=1"`
	}
	// MemberLeftData is family.member.left's data: a member left (no removedBy) or an admin
	// removed them. The envelope's userId is the member who is gone. familyDeleted: they were
	// the last member and the family is gone; drawCancelled: the family's Secret Santa draw
	// included them and was cancelled.
	MemberLeftData struct {
		FamilyID      string `json:"familyId" jsonschema:"format=uuid"`
		FamilyName    string `json:"familyName" jsonschema:"minLength=1,maxLength=60"`
		UID           string `json:"uid" jsonschema:"minLength=1"`
		RemovedBy     string `json:"removedBy,omitempty" jsonschema:"minLength=1"`
		FamilyDeleted bool   `json:"familyDeleted"`
		DrawCancelled bool   `json:"drawCancelled"`
	}
	// SecretSantaDrawnData is secretsanta.drawn's data: an admin drew (or redrew) Secret Santa
	// names. Carries who takes part, in uid order, and never who gives to whom: each person
	// learns their own match only from GET /api/families/{id}/secret-santa. The envelope's
	// userId is the admin.
	SecretSantaDrawnData struct {
		FamilyID     string    `json:"familyId" jsonschema:"format=uuid"`
		FamilyName   string    `json:"familyName" jsonschema:"minLength=1,maxLength=60"`
		DrawnAt      time.Time `json:"drawnAt"`
		Participants []string  `json:"participants" jsonschema:"minItems=2,maxItems=50,uniqueItems=true,minLength=1"`
	}
)

// Enums are MemberJoinedData's fields that take only listed values, by JSON name.
func (MemberJoinedData) Enums() map[string][]string { return map[string][]string{"role": MemberRoles} }

// SecretSantaMessageData is secretsanta.message's data: a participant wrote in one of their
// two Secret Santa conversations. The envelope's userId is the one who receives the message,
// never the writer, and its occurredAt is the message's own time. with is the conversation
// from the receiver's side: "santa" when their own Secret Santa wrote (who that is is never
// carried: no uid, name or email), "giftee" when their giftee wrote. The text is not carried
// either: the receiver reads it from GET /api/families/{id}/secret-santa/messages.
type SecretSantaMessageData struct {
	FamilyID   string `json:"familyId" jsonschema:"format=uuid"`
	FamilyName string `json:"familyName" jsonschema:"minLength=1,maxLength=60"`
	MessageID  string `json:"messageId" jsonschema:"format=uuid"`
	With       string `json:"with"`
}

// Enums are SecretSantaMessageData's fields that take only listed values, by JSON name.
func (SecretSantaMessageData) Enums() map[string][]string {
	return map[string][]string{"with": ConversationSides}
}

// ConversationSides are the values of SecretSantaMessageData.With.
var ConversationSides = []string{"santa", "giftee"}

// MemberRoles are the roles family.member.joined names (the family service's roles).
var MemberRoles = []string{"admin", "member"}

// Accounts.
type (
	// UserDeletedData is user.deleted's data: the account whose uid is the envelope's userId
	// was deleted (DELETE /api/account). Every service that holds the user's data erases it,
	// idempotently, and answers with user.erased.
	UserDeletedData struct {
		RequestedAt time.Time `json:"requestedAt"`
	}
	// UserErasedData is user.erased's data: one service erased everything it held of the
	// deleted account (the envelope's userId). The id is derived from the user.deleted event's
	// id and the service, so a repeated erasure answers with the same id. The wishlist
	// completes the deletion once every service answered.
	UserErasedData struct {
		Service string `json:"service"`
	}
)

// Enums are UserErasedData's fields that take only listed values, by JSON name.
func (UserErasedData) Enums() map[string][]string {
	return map[string][]string{"service": ErasingServices}
}

// Reminder data. Each names the occasion it is about, so the notice says when, and nothing
// else: the shopping reminder is the claimer's own claims, the empty-list reminder counts
// items, never claims.
type (
	// DrawSoonData is reminder.draw_soon's data: a family's planned Secret Santa draw (drawOn,
	// set by an admin) is at most 3 days away and the family has not drawn since the date was
	// planned. Published by the family service once per admin and planned date (its
	// sent_reminders table, in the transaction of the outbox row). The envelope's userId is
	// the admin to remind.
	DrawSoonData struct {
		FamilyID   string `json:"familyId" jsonschema:"format=uuid"`
		FamilyName string `json:"familyName" jsonschema:"minLength=1,maxLength=60"`
		// The planned draw date (UTC calendar day).
		DrawOn string `json:"drawOn" jsonschema:"format=date"`
		// Days from the day the reminder was made to drawOn.
		DaysLeft int `json:"daysLeft" jsonschema:"minimum=0,maximum=3"`
	}
	// ExchangeSoonData is reminder.exchange_soon's data: a family's Secret Santa exchange
	// (exchangeOn, set by an admin) is at most 3 days away. Published by the family service
	// once per participant of the current draw and exchange date (its sent_reminders table, in
	// the transaction of the outbox row): a redraw with the same date reminds nobody twice.
	// The envelope's userId is the participant to remind; nothing in it says whom they give
	// to.
	ExchangeSoonData struct {
		FamilyID   string `json:"familyId" jsonschema:"format=uuid"`
		FamilyName string `json:"familyName" jsonschema:"minLength=1,maxLength=60"`
		// The exchange date (UTC calendar day).
		ExchangeOn string `json:"exchangeOn" jsonschema:"format=date"`
		// Where, as the admin wrote it; empty when not said.
		Place string `json:"place" jsonschema:"maxLength=120"`
		// Days from the day the reminder was made to exchangeOn.
		DaysLeft int `json:"daysLeft" jsonschema:"minimum=0,maximum=3"`
	}
	// ShoppingData is reminder.shopping's data: seven days (or less) before a reveal date, the
	// claimer's own claims of that date that are not marked purchased. Published by the
	// wishlist service once per claimer and reveal date. The envelope's userId is the claimer,
	// never a list's owner; it names no list, item or owner.
	ShoppingData struct {
		// The reveal date the claims carry.
		RevealAt time.Time `json:"revealAt"`
		DaysLeft int       `json:"daysLeft" jsonschema:"minimum=0,maximum=7"`
		// How many of the claimer's claims of that date are not marked purchased.
		NotPurchased int `json:"notPurchased" jsonschema:"minimum=1"`
	}
	// ListEmptyData is reminder.list_empty's data: a month (or less) before its reveal date, a
	// list shared by link or with a family has no items. Published by the wishlist service
	// once per list and reveal date. The envelope's userId is the list's owner. It counts
	// items only: nothing in it depends on claims.
	ListEmptyData struct {
		ListID   string    `json:"listId" jsonschema:"format=uuid"`
		ListName string    `json:"listName" jsonschema:"minLength=1,maxLength=60"`
		RevealAt time.Time `json:"revealAt"`
		DaysLeft int       `json:"daysLeft" jsonschema:"minimum=0,maximum=31"`
	}
)
