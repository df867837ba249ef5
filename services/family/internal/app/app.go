// Package app holds the family service's use cases.
package app

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/apperror"
	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/family/internal/domain"
)

// Member is one member of a family as the API answers it.
type Member struct {
	UID         string `json:"uid"`
	DisplayName string `json:"displayName"`
	Role        string `json:"role"`
}

// SharedList is a list a member shared with the family (owned by wishlist).
type SharedList struct {
	ListID    string `json:"listId"`
	Name      string `json:"name"`
	OwnerUID  string `json:"ownerUid"` // a member of the family: the caller already has their uid
	OwnerName string `json:"ownerName"`
	Token     string `json:"token"`
	// A list kept for someone else: whom it is for, and who keeps it.
	RecipientName string   `json:"recipientName,omitempty"`
	ManagedBy     []string `json:"managedBy,omitempty"`
}

// Family is the API's family.
type Family struct {
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Role    string       `json:"role"`
	Members []Member     `json:"members"`
	Lists   []SharedList `json:"lists"`
	// DrawOn is the planned Secret Santa draw date (YYYY-MM-DD), null when none is planned.
	DrawOn *string `json:"drawOn"`
}

// Created is the answer to creating a family: the family and its first invitation.
type Created struct {
	ID     string        `json:"id"`
	Name   string        `json:"name"`
	Role   string        `json:"role"`
	Invite domain.Invite `json:"invite"`
}

// InviteInfo is what the accept page shows.
type InviteInfo struct {
	FamilyName string `json:"familyName"`
	InvitedBy  string `json:"invitedBy"`
}

// DrawResult is the answer to a draw: when, how many take part, and whether each one's own
// match tells them the whole draw (three participants); never a pair.
type DrawResult struct {
	DrawnAt             time.Time `json:"drawnAt"`
	Participants        int       `json:"participants"`
	EveryoneCanDeduce   bool      `json:"everyoneCanDeduce"`
	RevealAfterExchange bool      `json:"revealAfterExchange"`
}

// Assignee is the person the caller gives to.
type Assignee struct {
	UID         string     `json:"uid"`
	DisplayName string     `json:"displayName"`
	Lists       []ListLink `json:"lists"`
}

// ListLink opens an assignee's list shared with the family.
type ListLink struct {
	Name  string `json:"name"`
	Token string `json:"token"`
}

// MyMatch is the caller's own Secret Santa match, with the exclusions the draw used (every
// participant sees them, as [uidA, uidB] pairs).
type MyMatch struct {
	DrawnAt           time.Time   `json:"drawnAt"`
	Budget            string      `json:"budget"`
	Exclusions        [][2]string `json:"exclusions"`
	EveryoneCanDeduce bool        `json:"everyoneCanDeduce"`
	Assignee          Assignee    `json:"assignee"`
	// The exchange: its date (YYYY-MM-DD, null when not set) and place, set by an admin.
	ExchangeOn *string `json:"exchangeOn"`
	Place      string  `json:"place"`
	// RevealAfterExchange was chosen at the draw; Circle is there only once the exchange day
	// is over and only with it.
	RevealAfterExchange bool         `json:"revealAfterExchange"`
	Circle              []CirclePair `json:"circle,omitempty"`
}

// CirclePair is one giver and receiver of a revealed circle.
type CirclePair struct {
	Giver    Member `json:"giver"`
	Receiver Member `json:"receiver"`
}

// OpenInvite is an invitation that still works, for the admins' list.
type OpenInvite = domain.OpenInvite

// Families runs the use cases on the repository.
type Families struct {
	repo   domain.Repository
	random io.Reader
	now    func() time.Time
}

// New builds the application with crypto/rand as the source of tokens and draws.
func New(repo domain.Repository) *Families {
	return &Families{repo: repo, random: rand.Reader, now: time.Now}
}

// Create makes a family with the caller as admin and a first invitation link.
func (f *Families) Create(ctx context.Context, by caller.Caller, name string) (Created, error) {
	name, err := domain.CleanName(name)
	if err != nil {
		return Created{}, err
	}
	inv, err := domain.NewInvite(f.random, f.now())
	if err != nil {
		return Created{}, err
	}
	id, err := f.repo.CreateFamily(ctx, by, name, inv)
	if err != nil {
		return Created{}, err
	}
	return Created{ID: id, Name: name, Role: domain.RoleAdmin, Invite: inv}, nil
}

// List answers the caller's families.
func (f *Families) List(ctx context.Context, uid string) ([]Family, error) {
	views, err := f.repo.Families(ctx, uid)
	if err != nil {
		return nil, err
	}
	return f.withLists(ctx, views)
}

// withLists answers the views with the lists their members shared with each family.
func (f *Families) withLists(ctx context.Context, views []domain.View) ([]Family, error) {
	ids := make([]string, len(views))
	for i, v := range views {
		ids[i] = v.ID
	}
	lists, err := f.repo.SharedLists(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Family, len(views))
	for i, v := range views {
		out[i] = familyOf(v)
		for _, l := range lists[v.ID] {
			out[i].Lists = append(out[i].Lists, SharedList{ListID: l.ListID, Name: l.Name, OwnerUID: l.OwnerUID, OwnerName: l.OwnerName, Token: l.Token,
				RecipientName: l.RecipientName, ManagedBy: l.ManagedBy})
		}
	}
	return out, nil
}

// Get answers one of the caller's families.
func (f *Families) Get(ctx context.Context, familyID, uid string) (Family, error) {
	v, err := f.repo.Family(ctx, familyID, uid)
	if err != nil {
		return Family{}, err
	}
	fams, err := f.withLists(ctx, []domain.View{v})
	if err != nil {
		return Family{}, err
	}
	return fams[0], nil
}

func familyOf(v domain.View) Family {
	fam := Family{ID: v.ID, Name: v.Name, Role: v.Role, Members: make([]Member, len(v.Members)), Lists: []SharedList{},
		DrawOn: dayOf(v.DrawOn)}
	for i, m := range v.Members {
		fam.Members[i] = Member{UID: m.UID, DisplayName: m.DisplayName, Role: v.Roles[m.UID]}
	}
	return fam
}

// Invite makes an invitation link (admins only); with an email it is also sent by email.
//
// language is the inviter's app language, for the email (checked); when it is empty, the first
// of acceptLanguage (the request's Accept-Language header, the browser's languages) is taken.
func (f *Families) Invite(ctx context.Context, familyID string, by caller.Caller, email, language, acceptLanguage string) (domain.Invite, error) {
	if email != "" {
		var err error
		if email, err = domain.CleanEmail(email); err != nil {
			return domain.Invite{}, err
		}
	}
	language, err := domain.CleanLanguage(language)
	if err != nil {
		return domain.Invite{}, err
	}
	if language == "" {
		language = domain.PreferredLanguage(acceptLanguage)
	}
	inv, err := domain.NewInvite(f.random, f.now())
	if err != nil {
		return domain.Invite{}, err
	}
	return inv, f.repo.CreateInvite(ctx, familyID, by, inv, email, language)
}

// InviteInfo answers the accept page.
func (f *Families) InviteInfo(ctx context.Context, token string) (InviteInfo, error) {
	name, by, err := f.repo.InviteInfo(ctx, token)
	return InviteInfo{FamilyName: name, InvitedBy: by}, err
}

// Accept joins the caller to the invitation's family.
func (f *Families) Accept(ctx context.Context, token string, by caller.Caller) (Family, error) {
	id, err := f.repo.Accept(ctx, token, by)
	if err != nil {
		return Family{}, err
	}
	return f.Get(ctx, id, by.UID)
}

// RemoveMember is leaving (target is the caller) or an admin removing a member.
func (f *Families) RemoveMember(ctx context.Context, familyID, callerUID, target string) error {
	return f.repo.RemoveMember(ctx, familyID, callerUID, target)
}

// SetRole changes a member's role (admins only).
func (f *Families) SetRole(ctx context.Context, familyID, callerUID, target, role string) error {
	if role != domain.RoleAdmin && role != domain.RoleMember {
		return &domain.FieldError{Field: "role", Message: `The role must be "admin" or "member".`}
	}
	return f.repo.SetRole(ctx, familyID, callerUID, target, role)
}

// DrawRequest is an admin's request for a draw.
type DrawRequest struct {
	Exclusions          [][]string `json:"exclusions"`
	Budget              string     `json:"budget"`
	RevealAfterExchange bool       `json:"revealAfterExchange"`
}

// Draw replaces the family's Secret Santa draw.
func (f *Families) Draw(ctx context.Context, familyID, callerUID string, req DrawRequest) (DrawResult, error) {
	budget, err := domain.CleanBudget(req.Budget)
	if err != nil {
		return DrawResult{}, err
	}
	// Each exclusion is a pair: a longer or shorter list would be silently misread.
	pairs := make([][2]string, len(req.Exclusions))
	for i, ex := range req.Exclusions {
		if len(ex) != 2 {
			return DrawResult{}, &domain.FieldError{Field: "exclusions", Message: "Each exclusion is a pair of two members."}
		}
		pairs[i] = [2]string{ex[0], ex[1]}
	}
	var everyone bool
	at, n, err := f.repo.Draw(ctx, familyID, callerUID, budget, func(members []domain.Member) (domain.Drawn, error) {
		var err error
		if everyone, err = domain.CheckSecret(members, pairs); err != nil {
			return domain.Drawn{}, err
		}
		assignments, err := domain.Draw(members, pairs, f.random)
		return domain.Drawn{Pairs: assignments, Exclusions: domain.NormalExclusions(pairs), EveryoneCanDeduce: everyone,
			RevealAfterExchange: req.RevealAfterExchange}, err
	})
	return DrawResult{DrawnAt: at, Participants: n, EveryoneCanDeduce: everyone, RevealAfterExchange: req.RevealAfterExchange}, err
}

func dayOf(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(time.DateOnly)
	return &s
}

// Unprocessable says whether err is a rule broken by a date (422, as a list's revealAt),
// rather than the family's usual 400.
func Unprocessable(err error) bool {
	var date *domain.DateError
	var input *domain.InputError
	return errors.As(err, &date) || errors.As(err, &input)
}

// Invites lists the family's open invitations (admins only).
func (f *Families) Invites(ctx context.Context, familyID, callerUID string) ([]OpenInvite, error) {
	return f.repo.Invites(ctx, familyID, callerUID)
}

// RevokeInvite revokes one invitation, named by its token or its id (admins only).
func (f *Families) RevokeInvite(ctx context.Context, familyID, callerUID, ref string) error {
	return f.repo.RevokeInvite(ctx, familyID, callerUID, ref)
}

// MyMatch answers the caller's own match and nothing else.
func (f *Families) MyMatch(ctx context.Context, familyID, uid string) (MyMatch, error) {
	m, err := f.repo.MyMatch(ctx, familyID, uid)
	if err != nil {
		return MyMatch{}, err
	}
	// The assignee's lists shared with this family (the caller is a member: MyMatch said so).
	lists, err := f.repo.SharedLists(ctx, []string{familyID})
	if err != nil {
		return MyMatch{}, err
	}
	links := []ListLink{}
	for _, l := range lists[familyID] {
		// The assignee's own lists and the lists kept for them; never a list they keep for
		// someone else (a child's wishes are not theirs).
		if (l.OwnerUID == m.Assignee.UID && l.RecipientName == "") || l.RecipientUID == m.Assignee.UID {
			links = append(links, ListLink{Name: l.Name, Token: l.Token})
		}
	}
	out := MyMatch{DrawnAt: m.DrawnAt, Budget: m.Budget, Exclusions: m.Exclusions, EveryoneCanDeduce: m.EveryoneCanDeduce, Assignee: Assignee{
		UID: m.Assignee.UID, DisplayName: m.Assignee.DisplayName, Lists: links,
	}, ExchangeOn: dayOf(m.ExchangeOn), Place: m.Place, RevealAfterExchange: m.RevealAfterExchange}
	if m.RevealAfterExchange && domain.ExchangePassed(m.ExchangeOn, f.now()) {
		// The repository checks both conditions again in its query.
		circle, err := f.repo.Circle(ctx, familyID, uid, f.now())
		if err != nil {
			return MyMatch{}, err
		}
		for _, p := range circle {
			out.Circle = append(out.Circle, CirclePair{Giver: Member{UID: p.Giver.UID, DisplayName: p.Giver.DisplayName},
				Receiver: Member{UID: p.Receiver.UID, DisplayName: p.Receiver.DisplayName}})
		}
	}
	return out, nil
}

// ExchangeRequest is an admin's PATCH of the Secret Santa: each field changes only when
// present; drawOn plans the draw (as before), exchangeOn, place and budget the exchange.
type ExchangeRequest struct {
	DrawOn     Optional `json:"drawOn"`
	ExchangeOn Optional `json:"exchangeOn"`
	Place      Optional `json:"place"`
	Budget     Optional `json:"budget"`
}

// Optional is a JSON string field that may be absent (Set false), null or a string.
type Optional struct {
	Set   bool
	Value *string
}

// UnmarshalJSON records that the field was there; null leaves Value nil.
func (o *Optional) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	o.Value = &s
	return nil
}

func (o Optional) text() string {
	if o.Value == nil {
		return ""
	}
	return *o.Value
}

// Plan is the answer to PATCH: the planned draw date and the exchange as saved.
type Plan struct {
	DrawOn     *string `json:"drawOn"`
	ExchangeOn *string `json:"exchangeOn"`
	Place      string  `json:"place"`
	// Budget is the current draw's, null without a draw.
	Budget *string `json:"budget"`
}

// Plan applies an admin's PATCH: every value is checked before anything is saved.
func (f *Families) Plan(ctx context.Context, familyID, callerUID string, req ExchangeRequest) (Plan, error) {
	var drawOn, exchangeOn *time.Time
	var err error
	if req.DrawOn.Set {
		if drawOn, err = domain.CleanDrawOn(req.DrawOn.Value, f.now()); err != nil {
			return Plan{}, err
		}
	}
	ch := domain.ExchangeChange{SetExchangeOn: req.ExchangeOn.Set, SetPlace: req.Place.Set, SetBudget: req.Budget.Set}
	if req.ExchangeOn.Set {
		if exchangeOn, err = domain.CleanExchangeOn(req.ExchangeOn.text(), f.now()); err != nil {
			return Plan{}, err
		}
		ch.ExchangeOn = exchangeOn
	}
	if req.Place.Set {
		if ch.Place, err = domain.CleanPlace(req.Place.text()); err != nil {
			return Plan{}, err
		}
	}
	if req.Budget.Set {
		if ch.Budget, err = domain.CleanBudget(req.Budget.text()); err != nil {
			return Plan{}, err
		}
	}
	// The exchange first: it refuses a budget without a draw before the draw date is saved.
	ex, err := f.repo.SetExchange(ctx, familyID, callerUID, ch)
	if err != nil {
		return Plan{}, err
	}
	if req.DrawOn.Set {
		if err := f.repo.SetDrawOn(ctx, familyID, callerUID, drawOn); err != nil {
			return Plan{}, err
		}
	}
	v, err := f.repo.Family(ctx, familyID, callerUID)
	if err != nil {
		return Plan{}, err
	}
	return Plan{DrawOn: dayOf(v.DrawOn), ExchangeOn: dayOf(ex.ExchangeOn), Place: ex.Place, Budget: ex.Budget}, nil
}

// Message is one message of the caller's two Secret Santa conversations: with their
// "giftee" or their "santa", written by "me" or "them". Nothing else of the other side.
type Message struct {
	ID   string    `json:"id"`
	With string    `json:"with"`
	From string    `json:"from"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

func messageOf(m domain.Message) Message {
	from := "them"
	if m.Mine {
		from = "me"
	}
	return Message{ID: m.ID, With: m.With, From: from, Text: m.Text, At: m.SentAt}
}

// SendMessage writes to the caller's giftee or to their own Secret Santa.
func (f *Families) SendMessage(ctx context.Context, familyID, uid, to, text string) (Message, error) {
	text, err := domain.CleanMessage(to, text)
	if err != nil {
		return Message{}, err
	}
	m, err := f.repo.SendMessage(ctx, familyID, uid, to, text)
	if err != nil {
		return Message{}, err
	}
	return messageOf(m), nil
}

// Messages answers the caller's own two conversations, oldest first.
func (f *Families) Messages(ctx context.Context, familyID, uid string) ([]Message, error) {
	ms, err := f.repo.Messages(ctx, familyID, uid)
	if err != nil {
		return nil, err
	}
	out := make([]Message, len(ms))
	for i, m := range ms {
		out[i] = messageOf(m)
	}
	return out, nil
}

// ErrBadListEvent is a list.families event that can never be applied.
var ErrBadListEvent = errors.New("list.families needs a listId, an owner, a version and family ids")

// ListFamilies applies wishlist's list.families event to the projection of shared lists.
func (f *Families) ListFamilies(ctx context.Context, l events.ListFamiliesData) error {
	if _, err := uuid.Parse(l.ListID); err != nil || l.OwnerUID == "" || l.Version < 1 {
		return ErrBadListEvent
	}
	for _, id := range l.FamilyIDs {
		if _, err := uuid.Parse(id); err != nil {
			return ErrBadListEvent
		}
	}
	return f.repo.SaveListFamilies(ctx, l)
}

// ErrorOf classifies any error the application returns.
func ErrorOf(err error) *apperror.Error {
	var field *domain.FieldError
	if errors.As(err, &field) {
		return &apperror.Error{Kind: apperror.KindInvalid, Code: "validation_failed", Message: field.Message,
			Fields: map[string]string{field.Field: field.Message}, Err: err}
	}
	var date *domain.DateError
	if errors.As(err, &date) {
		return &apperror.Error{Kind: apperror.KindInvalid, Code: "validation_failed", Message: date.Message,
			Fields: map[string]string{date.Field: date.Message}, Err: err}
	}
	var unprocessable *domain.InputError
	if errors.As(err, &unprocessable) {
		return &apperror.Error{Kind: apperror.KindInvalid, Code: "validation_failed", Message: unprocessable.Message,
			Fields: map[string]string{unprocessable.Field: unprocessable.Message}, Err: err}
	}
	var input *domain.DrawInputError
	if errors.As(err, &input) {
		return &apperror.Error{Kind: apperror.KindInvalid, Code: "validation_failed", Message: input.Message,
			Fields: map[string]string{input.Field: input.Message}, Err: err}
	}
	var notSecret *domain.DrawNotSecretError
	if errors.As(err, &notSecret) {
		// fields.exclusions is the sentence; fields["exclusions.<i>"] names each exclusion to
		// drop by its position in the request, so a client can untick exactly those.
		fields := map[string]string{"exclusions": notSecret.Message}
		for i, at := range notSecret.Drop {
			fields[fmt.Sprintf("exclusions.%d", at)] = notSecret.Names[i]
		}
		return &apperror.Error{Kind: apperror.KindConflict, Code: "draw_not_secret", Message: notSecret.Message,
			Fields: fields, Err: err}
	}
	var impossible *domain.DrawImpossibleError
	if errors.As(err, &impossible) {
		return &apperror.Error{Kind: apperror.KindConflict, Code: "draw_impossible", Message: impossible.Message,
			Standalone: true, Err: err}
	}
	return apperror.Classify(err, sentinels)
}

// sentinels are the rules' errors with their kinds and codes.
var sentinels = []apperror.Sentinel{
	{Err: domain.ErrNotFound, Kind: apperror.KindNotFound, Code: "not_found"},
	{Err: domain.ErrMemberNotFound, Kind: apperror.KindNotFound, Code: "not_found"},
	{Err: domain.ErrInviteNotFound, Kind: apperror.KindNotFound, Code: "invite_not_found"},
	{Err: domain.ErrNoDraw, Kind: apperror.KindNotFound, Code: "no_draw"},
	{Err: domain.ErrNotAdmin, Kind: apperror.KindForbidden, Code: "forbidden"},
	{Err: domain.ErrInviteForSomeoneElse, Kind: apperror.KindForbidden, Code: "invite_for_someone_else"},
	{Err: domain.ErrLastAdmin, Kind: apperror.KindConflict, Code: "last_admin"},
	{Err: domain.ErrFamilyFull, Kind: apperror.KindConflict, Code: "family_full"},
	{Err: domain.ErrTooManyFamilies, Kind: apperror.KindConflict, Code: "too_many_families"},
	{Err: domain.ErrTooConstrained, Kind: apperror.KindConflict, Code: "draw_too_constrained"},
}
