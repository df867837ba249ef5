// Package app holds the wishlist's use cases.
package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// Types the ports read and write, so ports depend on this package alone.
type (
	Item         = domain.Item
	Draft        = domain.Draft
	List         = domain.List
	ListDraft    = domain.ListDraft
	Share        = domain.Share
	ClaimRequest = domain.ClaimRequest
	ClaimResult  = domain.ClaimResult

	GroupGiftRequest = domain.GroupGiftRequest
	PledgeRequest    = domain.PledgeRequest
	BudgetRequest    = domain.BudgetRequest
	ThanksRequest    = domain.ThanksRequest
)

// Store is where lists, items and claims live (PostgreSQL in production and in tests). Every
// method is scoped to the caller: another user's list or item is domain.ErrNotFound /
// domain.ErrListNotFound, like one that does not exist.
type Store interface {
	// Create saves an item, in item.ListID or (empty) the user's default list.
	Create(ctx context.Context, item domain.Item, ownerName string) (domain.Item, error)
	// ListJSON hands write the items of one list (empty: the default list), newest first, as
	// a JSON array; the buffer is reused once write returns.
	ListJSON(ctx context.Context, userID, listID string, write func(json.RawMessage)) error
	// RecentJSON hands write the user's newest items across lists.
	RecentJSON(ctx context.Context, userID string, limit int, write func(json.RawMessage)) error
	// Update loads the item under a row lock, lets edit decide its new state and saves it.
	Update(ctx context.Context, userID, id string, edit func(saved domain.Item) (domain.Item, error)) (domain.Item, error)
	Delete(ctx context.Context, userID, id string) error
	SendToSanta(ctx context.Context, userID, existingID string, draft domain.Item) (domain.Item, error)

	Lists(ctx context.Context, userID string) ([]domain.List, error)
	CreateList(ctx context.Context, list domain.List) (domain.List, error)
	// UpdateList changes a list; familyIDs nil leaves its family sharing as it is. Sharing
	// with a family needs the owner's membership in wishlist's projection (else
	// domain.ErrNotYourFamily) and gives a list without a link the link newToken.
	UpdateList(ctx context.Context, by caller.Caller, holder, id string, name *string, revealAt *time.Time, familyIDs []string,
		newToken, handOver string) (domain.List, error)
	DeleteList(ctx context.Context, userID, id string) error
	SetShare(ctx context.Context, userID, listID, token, ownerName string) (domain.List, error)
	DeleteShare(ctx context.Context, userID, listID string) error

	// SharedJSON answers GET /api/shared/{token} for viewer (UID empty: anonymous).
	SharedJSON(ctx context.Context, token, viewerUID string, write func(json.RawMessage)) error
	Claim(ctx context.Context, token, itemID string, claimer caller.Caller, quantity int, purchased bool) (domain.ClaimResult, error)
	Release(ctx context.Context, token, itemID, claimerUID string) error
	ClaimsJSON(ctx context.Context, userID string) (json.RawMessage, error)

	// MemberJoined and MemberLeft keep wishlist's projection of family memberships from the
	// family service's events; at is the event's time, and an event older than what the
	// projection holds for that member changes nothing (so duplicates and late redeliveries
	// are harmless). Leaving removes the family from the member's lists; a deleted family is
	// removed from every list.
	MemberJoined(ctx context.Context, familyID, uid, displayName string, at time.Time) error
	MemberLeft(ctx context.Context, familyID, uid string, familyDeleted bool, at time.Time) error

	// ListAccess is the caller's role on a list and the account holding it (ErrListNotFound
	// for none); ItemAccess the same for an item's list, with the item's own account as
	// Holder, and whether the item is a suggestion (ErrNotFound for none).
	ListAccess(ctx context.Context, uid, listID string) (domain.Access, error)
	ItemAccess(ctx context.Context, uid, itemID string) (domain.Access, bool, error)
	AddManager(ctx context.Context, by caller.Caller, listID, uid string) ([]domain.Manager, error)
	RemoveManager(ctx context.Context, by caller.Caller, listID, uid string) error
	Suggest(ctx context.Context, token string, by caller.Caller, item domain.Item) (domain.Item, error)
	EditSuggestion(ctx context.Context, token, itemID string, by caller.Caller, edit func(domain.Item) (domain.Item, error)) (domain.Item, error)
	DeleteSuggestion(ctx context.Context, token, itemID string, by caller.Caller) error

	// Giving together (docs/family.md): each under the item's row lock, as claims are.
	StartGroupGift(ctx context.Context, token, itemID string, by caller.Caller,
		plan func(price *string, free int) (domain.GroupGiftPlan, error)) (domain.GroupGift, error)
	Pledge(ctx context.Context, token, itemID string, by caller.Caller, parse func(currency string) (int64, error)) (domain.GroupGift, error)
	Withdraw(ctx context.Context, token, itemID, uid string) error
	CancelGroupGift(ctx context.Context, token, itemID, uid string) error
	Budgets(ctx context.Context, uid string) ([]domain.BudgetView, error)
	SetBudget(ctx context.Context, uid string, b domain.Budget) error
	DeleteBudget(ctx context.Context, uid, key string) error
	Thank(ctx context.Context, by caller.Caller, itemID, message string) (domain.Thanks, error)
	GiftsGivenJSON(ctx context.Context, uid string) (json.RawMessage, error)
}

// ImageStore keeps inline images out of the database.
type ImageStore interface {
	StoreDataURL(ctx context.Context, userID, itemID, dataURL string) (string, error)
	// Discard removes an image stored for an item that was then not saved.
	Discard(ctx context.Context, userID, imageURL string) error
	// Attach tells media that an item took one of the user's unattached uploads (a shop
	// link's picture), which media would otherwise expire.
	Attach(ctx context.Context, userID, itemID, imageURL string) error
}

// Wishlist is the application service.
type Wishlist struct {
	store  Store
	images ImageStore // nil when no media service is configured
}

// New builds the application.
func New(store Store, images ImageStore) *Wishlist { return &Wishlist{store: store, images: images} }

// Add validates a draft and saves it for the user.
func (w *Wishlist) Add(ctx context.Context, by caller.Caller, draft domain.Draft) (domain.Item, error) {
	holder, err := w.itemHolder(ctx, by.UID, draft.ListID)
	if err != nil {
		return domain.Item{}, err
	}
	item, err := w.prepare(ctx, holder, draft)
	if err != nil {
		return domain.Item{}, err
	}
	saved, err := w.store.Create(ctx, item, by.Name)
	if err != nil {
		w.discardImage(ctx, item) // a full list keeps no photo behind
	}
	return saved, err
}

// itemHolder is the account a new or moved item of listID belongs to: the caller's own for
// their lists (and for no list: their default one), the list's holder for a list the caller
// keeps or that is kept for them. A list the caller has no role on is the listId field's error.
func (w *Wishlist) itemHolder(ctx context.Context, uid string, listID *string) (string, error) {
	if listID == nil || !domain.IsUUID(strings.TrimSpace(*listID)) {
		return uid, nil // no list, or one the draft's validation refuses
	}
	a, err := w.store.ListAccess(ctx, uid, strings.ToLower(strings.TrimSpace(*listID)))
	if errors.Is(err, domain.ErrListNotFound) {
		return "", domain.FieldError("listId", domain.MsgListUnknown)
	}
	return a.Holder, err
}

// discardImage removes the photo prepare stored for item, which was not saved after all.
// It is best effort: a failure leaves an orphan in the item's folder, which is logged by media.
func (w *Wishlist) discardImage(ctx context.Context, item domain.Item) {
	if w.images == nil || item.ImageURL == nil || !strings.HasPrefix(*item.ImageURL, "/media/items/"+item.ID+"/") {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_ = w.images.Discard(ctx, item.UserID, *item.ImageURL)
}

// prepare validates the draft, gives the item its id and moves an inline image to media.
func (w *Wishlist) prepare(ctx context.Context, userID string, draft domain.Draft) (domain.Item, error) {
	item, err := draft.Validate()
	if err != nil {
		return domain.Item{}, err
	}
	item.ID = uuid.NewString()
	item.UserID = userID
	return item, w.storeImage(ctx, &item)
}

func (w *Wishlist) storeImage(ctx context.Context, item *domain.Item) error {
	if item.ImageURL != nil && strings.HasPrefix(*item.ImageURL, "/media/") {
		return w.takeStoredImage(ctx, item)
	}
	if item.ImageURL == nil || !domain.IsDataURL(*item.ImageURL) {
		return nil
	}
	if w.images == nil {
		return ErrImagesUnavailable
	}
	url, err := w.images.StoreDataURL(ctx, item.UserID, item.ID, *item.ImageURL)
	if err != nil {
		return err
	}
	item.ImageURL = &url
	return nil
}

// takeStoredImage accepts one of our own photo addresses only when it is this item's photo or
// the user's own unattached upload: the wishlist signs every address it answers, so an item
// that could name any key would hand out working addresses of other people's photos.
func (w *Wishlist) takeStoredImage(ctx context.Context, item *domain.Item) error {
	url := mediaurl.Unsigned(*item.ImageURL)
	if strings.HasPrefix(url, "/media/items/"+item.ID+"/") {
		return nil
	}
	if !strings.HasPrefix(url, "/media/items/unattached/") {
		return domain.FieldError("imageUrl", domain.MsgImageURLInvalid)
	}
	if w.images == nil {
		return nil
	}
	switch err := w.images.Attach(ctx, item.UserID, item.ID, url); {
	case errors.Is(err, domain.ErrNotYourImage):
		return domain.FieldError("imageUrl", domain.MsgImageURLInvalid)
	default:
		// Best effort otherwise: without it the picture expires with the unattached uploads.
		return nil
	}
}

// List answers one of the user's lists (listID empty: the default list) as JSON.
func (w *Wishlist) List(ctx context.Context, userID, listID string, write func(json.RawMessage)) error {
	if listID != "" && !domain.IsUUID(listID) {
		return domain.ErrListNotFound
	}
	return w.store.ListJSON(ctx, userID, listID, write)
}

// Recent answers the user's newest items as JSON.
func (w *Wishlist) Recent(ctx context.Context, userID string, write func(json.RawMessage)) error {
	return w.store.RecentJSON(ctx, userID, domain.RecentLimit, write)
}

// Edit applies a PATCH to one of the user's items.
func (w *Wishlist) Edit(ctx context.Context, userID, id string, patch domain.Draft) (domain.Item, error) {
	if !domain.IsUUID(id) {
		return domain.Item{}, domain.ErrNotFound
	}
	holder, err := w.itemKeeper(ctx, userID, id, patch.ListID != nil)
	if err != nil {
		return domain.Item{}, err
	}
	if patch.ListID != nil {
		// Moved only to a list the caller has a role on, held by the same account.
		to, err := w.itemHolder(ctx, userID, patch.ListID)
		if err != nil {
			return domain.Item{}, err
		}
		if to != holder {
			return domain.Item{}, domain.FieldError("listId", domain.MsgListUnknown)
		}
	}
	userID = holder
	// An inline photo is stored before the row is locked: media is a network call.
	// A stored photo's address is checked as on Add: this item's own, or the user's upload.
	if patch.ImageURL != nil && (domain.IsDataURL(*patch.ImageURL) || strings.HasPrefix(*patch.ImageURL, "/media/")) {
		img := domain.Item{ID: id, UserID: userID, ImageURL: patch.ImageURL}
		if err := w.storeImage(ctx, &img); err != nil {
			return domain.Item{}, err
		}
		patch.ImageURL = img.ImageURL
	}
	return w.store.Update(ctx, userID, id, patch.Edit)
}

// Remove deletes an item of a list the caller keeps, or that is kept for them.
func (w *Wishlist) Remove(ctx context.Context, userID, id string) error {
	if !domain.IsUUID(id) {
		return domain.ErrNotFound
	}
	holder, err := w.itemKeeper(ctx, userID, id, false)
	if err != nil {
		return err
	}
	return w.store.Delete(ctx, holder, id)
}

// itemKeeper is the account an item the caller may change belongs to: an item of their own
// list, of a list they keep, or of a list kept for them; a suggestion only for a manager, and
// never moved. Anything else is ErrNotFound, as for an item that does not exist.
func (w *Wishlist) itemKeeper(ctx context.Context, uid, id string, moving bool) (string, error) {
	a, suggested, err := w.store.ItemAccess(ctx, uid, id)
	if err != nil {
		return "", err
	}
	if suggested && a.Role != domain.RoleManager {
		return "", domain.ErrNotFound
	}
	if suggested && moving {
		return "", domain.FieldError("listId", domain.MsgListUnknown)
	}
	return a.Holder, nil
}

// SendToSanta saves the gift if it is not on the wishlist yet and marks it sent.
func (w *Wishlist) SendToSanta(ctx context.Context, userID, existingID string, draft domain.Draft) (domain.Item, error) {
	if existingID != "" {
		if !domain.IsUUID(existingID) {
			return domain.Item{}, domain.ErrNotFound
		}
		return w.store.SendToSanta(ctx, userID, existingID, domain.Item{})
	}
	item, err := w.prepare(ctx, userID, draft)
	if err != nil {
		return domain.Item{}, err
	}
	sent, err := w.store.SendToSanta(ctx, userID, "", item)
	if err != nil || sent.ID != item.ID {
		// The list was full, or the gift was already on it (matched by name): the photo
		// stored for the new item belongs to no item.
		w.discardImage(ctx, item)
	}
	return sent, err
}

// Lists answers the user's lists, the default first.
func (w *Wishlist) Lists(ctx context.Context, userID string) ([]domain.List, error) {
	return w.store.Lists(ctx, userID)
}

// CreateList makes a new list.
func (w *Wishlist) CreateList(ctx context.Context, by caller.Caller, d domain.ListDraft, now time.Time) (domain.List, error) {
	recipient, err := d.Recipient.Validate(by.UID)
	if err != nil {
		return domain.List{}, err
	}
	name := ""
	if d.Name != nil || recipient.Kind == domain.RecipientSelf {
		if name, err = domain.ValidName(d.Name); err != nil {
			return domain.List{}, err
		}
	} else if recipient.Kind == domain.RecipientPerson {
		name = domain.DefaultListNameFor(recipient.Name)
	} // a member's list is named by the store, which knows their name
	reveal := domain.DefaultRevealAt(now)
	if at, err := d.Reveal(now); err != nil {
		return domain.List{}, err
	} else if at != nil {
		reveal = *at
	}
	return w.store.CreateList(ctx, domain.List{
		ID: uuid.NewString(), UserID: by.UID, Name: name, RevealAt: reveal, OwnerName: by.Name, FamilyIDs: []string{},
		Recipient: recipient,
	})
}

// UpdateList renames a list, moves its reveal date or sets the families it is shared with.
func (w *Wishlist) UpdateList(ctx context.Context, by caller.Caller, id string, d domain.ListDraft) (domain.List, error) {
	if !domain.IsUUID(id) {
		return domain.List{}, domain.ErrListNotFound
	}
	var name *string
	if d.Name != nil {
		n, err := domain.ValidName(d.Name)
		if err != nil {
			return domain.List{}, err
		}
		name = &n
	}
	families, err := d.Families()
	if err != nil {
		return domain.List{}, err
	}
	reveal, err := d.Reveal(time.Now())
	if err != nil {
		return domain.List{}, err
	}
	handOver := ""
	if d.Recipient != nil {
		r, err := d.Recipient.Validate(by.UID)
		if err != nil {
			return domain.List{}, err
		}
		if r.Kind != domain.RecipientMember {
			return domain.List{}, domain.FieldError("recipient", domain.MsgRecipientFixed)
		}
		handOver = r.UID
	}
	a, err := w.keeps(ctx, by.UID, id)
	if err != nil {
		return domain.List{}, err
	}
	token := ""
	if len(families) > 0 { // used only if the list has no link yet
		if token, err = NewShareToken(); err != nil {
			return domain.List{}, err
		}
	}
	return w.store.UpdateList(ctx, by, a.Holder, id, name, reveal, families, token, handOver)
}

// keeps is the caller's access to a list whose settings they change: its owner or a manager.
func (w *Wishlist) keeps(ctx context.Context, uid, listID string) (domain.Access, error) {
	a, err := w.store.ListAccess(ctx, uid, listID)
	if err != nil {
		return a, err
	}
	return a, domain.Keeps(a.Role)
}

// DeleteList deletes a list that is not the default one, with its items.
func (w *Wishlist) DeleteList(ctx context.Context, userID, id string) error {
	if !domain.IsUUID(id) {
		return domain.ErrListNotFound
	}
	a, err := w.keeps(ctx, userID, id)
	if err != nil {
		return err
	}
	return w.store.DeleteList(ctx, a.Holder, id)
}

// Share makes the list's link, or replaces it: the old token stops working at once.
func (w *Wishlist) Share(ctx context.Context, by caller.Caller, listID string) (domain.Share, error) {
	if !domain.IsUUID(listID) {
		return domain.Share{}, domain.ErrListNotFound
	}
	a, err := w.keeps(ctx, by.UID, listID)
	if err != nil {
		return domain.Share{}, err
	}
	token, err := NewShareToken()
	if err != nil {
		return domain.Share{}, err
	}
	name := by.Name
	if a.Holder != by.UID {
		name = "" // the list keeps its holder's name
	}
	list, err := w.store.SetShare(ctx, a.Holder, listID, token, name)
	if err != nil {
		return domain.Share{}, err
	}
	return *list.Share, nil
}

// Unshare revokes the list's link.
func (w *Wishlist) Unshare(ctx context.Context, userID, listID string) error {
	if !domain.IsUUID(listID) {
		return domain.ErrListNotFound
	}
	a, err := w.keeps(ctx, userID, listID)
	if err != nil {
		return err
	}
	return w.store.DeleteShare(ctx, a.Holder, listID)
}

// ShareTokenBytes is 256 random bits: a token cannot be guessed or enumerated.
const ShareTokenBytes = 32

// NewShareToken is a URL-safe token from the operating system's cryptographic source.
func NewShareToken() (string, error) {
	b := make([]byte, ShareTokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// validToken refuses what no token of ours can be, before any database work.
func validToken(token string) bool {
	if len(token) != base64.RawURLEncoding.EncodedLen(ShareTokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil
}

// Shared answers a shared list for its viewer (UID empty: anonymous).
func (w *Wishlist) Shared(ctx context.Context, token, viewerUID string, write func(json.RawMessage)) error {
	if !validToken(token) {
		return domain.ErrShareNotFound
	}
	return w.store.SharedJSON(ctx, token, viewerUID, write)
}

// Claim sets the caller's claim on an item of a shared list.
func (w *Wishlist) Claim(ctx context.Context, token, itemID string, by caller.Caller, req domain.ClaimRequest) (domain.ClaimResult, error) {
	if !validToken(token) {
		return domain.ClaimResult{}, domain.ErrShareNotFound
	}
	q, purchased, err := req.Validate()
	if err != nil {
		return domain.ClaimResult{}, err
	}
	if !domain.IsUUID(itemID) {
		return domain.ClaimResult{}, domain.ErrNotFound
	}
	return w.store.Claim(ctx, token, itemID, by, q, purchased)
}

// Release drops the caller's claim on an item of a shared list.
func (w *Wishlist) Release(ctx context.Context, token, itemID, userID string) error {
	if !validToken(token) {
		return domain.ErrShareNotFound
	}
	if !domain.IsUUID(itemID) {
		return domain.ErrNotFound
	}
	return w.store.Release(ctx, token, itemID, userID)
}

// Claims answers the caller's gift shopping list.
func (w *Wishlist) Claims(ctx context.Context, userID string) (json.RawMessage, error) {
	return w.store.ClaimsJSON(ctx, userID)
}

// MemberJoined records that uid belongs to familyID (family.member.joined).
func (w *Wishlist) MemberJoined(ctx context.Context, familyID, uid, displayName string, at time.Time) error {
	if !domain.IsUUID(familyID) || uid == "" {
		return ErrBadEvent
	}
	return w.store.MemberJoined(ctx, familyID, uid, displayName, at.UTC().Truncate(time.Microsecond))
}

// MemberLeft records that uid left familyID, or that the family is gone (family.member.left):
// the family is taken off the member's lists (every list, for a deleted family).
func (w *Wishlist) MemberLeft(ctx context.Context, familyID, uid string, familyDeleted bool, at time.Time) error {
	if !domain.IsUUID(familyID) || uid == "" {
		return ErrBadEvent
	}
	return w.store.MemberLeft(ctx, familyID, uid, familyDeleted, at.UTC().Truncate(time.Microsecond))
}

// sharedItem checks a shared item's token and id before the store is asked.
func sharedItem(token, itemID string) error {
	if !validToken(token) {
		return domain.ErrShareNotFound
	}
	if !domain.IsUUID(itemID) {
		return domain.ErrNotFound
	}
	return nil
}

// StartGroupGift starts a group gift on an item of a shared list.
func (w *Wishlist) StartGroupGift(ctx context.Context, token, itemID string, by caller.Caller, req domain.GroupGiftRequest) (domain.GroupGift, error) {
	if err := sharedItem(token, itemID); err != nil {
		return domain.GroupGift{}, err
	}
	return w.store.StartGroupGift(ctx, token, itemID, by, func(price *string, free int) (domain.GroupGiftPlan, error) {
		return domain.PlanGroupGift(req, price, free)
	})
}

// Pledge sets the caller's pledge to an item's group gift.
func (w *Wishlist) Pledge(ctx context.Context, token, itemID string, by caller.Caller, req domain.PledgeRequest) (domain.GroupGift, error) {
	if err := sharedItem(token, itemID); err != nil {
		return domain.GroupGift{}, err
	}
	return w.store.Pledge(ctx, token, itemID, by, func(currency string) (int64, error) {
		return domain.ParseAmount(req.Amount, currency, "amount")
	})
}

// Withdraw drops the caller's pledge.
func (w *Wishlist) Withdraw(ctx context.Context, token, itemID, uid string) error {
	if err := sharedItem(token, itemID); err != nil {
		return err
	}
	return w.store.Withdraw(ctx, token, itemID, uid)
}

// CancelGroupGift ends a group gift its organizer alone has pledged to.
func (w *Wishlist) CancelGroupGift(ctx context.Context, token, itemID, uid string) error {
	if err := sharedItem(token, itemID); err != nil {
		return err
	}
	return w.store.CancelGroupGift(ctx, token, itemID, uid)
}

// Budgets answers the giver's budgets and what they give each person.
func (w *Wishlist) Budgets(ctx context.Context, uid string) ([]domain.BudgetView, error) {
	return w.store.Budgets(ctx, uid)
}

// SetBudget keeps the giver's budget for the person key names and answers that person's entry.
func (w *Wishlist) SetBudget(ctx context.Context, uid, key string, req domain.BudgetRequest) (domain.BudgetView, error) {
	b, err := req.Validate(key)
	if err != nil {
		return domain.BudgetView{}, err
	}
	if err := w.store.SetBudget(ctx, uid, b); err != nil {
		return domain.BudgetView{}, err
	}
	all, err := w.store.Budgets(ctx, uid)
	if err != nil {
		return domain.BudgetView{}, err
	}
	for _, v := range all {
		if v.Recipient.Key == key {
			return v, nil
		}
	}
	return domain.BudgetView{}, domain.ErrNotFound
}

// DeleteBudget forgets the giver's budget for one person.
func (w *Wishlist) DeleteBudget(ctx context.Context, uid, key string) error {
	if !domain.ValidBudgetKey(key) {
		return domain.ErrNotFound
	}
	return w.store.DeleteBudget(ctx, uid, key)
}

// Thank thanks the givers of an item's revealed gifts.
func (w *Wishlist) Thank(ctx context.Context, by caller.Caller, itemID string, req domain.ThanksRequest) (domain.Thanks, error) {
	if !domain.IsUUID(itemID) {
		return domain.Thanks{}, domain.ErrNotFound
	}
	msg, err := req.Validate()
	if err != nil {
		return domain.Thanks{}, err
	}
	return w.store.Thank(ctx, by, itemID, msg)
}

// GiftsGiven answers "What I gave".
func (w *Wishlist) GiftsGiven(ctx context.Context, uid string) (json.RawMessage, error) {
	return w.store.GiftsGivenJSON(ctx, uid)
}
