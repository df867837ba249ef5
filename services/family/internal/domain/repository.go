package domain

import (
	"context"
	"time"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/events"
)

// Repository is where families live (PostgreSQL, in adapters). Every method checks the caller's
// membership itself, so another family's data answers ErrNotFound, like a family that does not
// exist; a method that decides under a lock asks this package's rules (membership.go).
type Repository interface {
	// CreateFamily makes a family with the caller as its admin, and its first invitation link.
	CreateFamily(ctx context.Context, by caller.Caller, name string, inv Invite) (string, error)
	// Families are the caller's families, oldest first, with their members (admins first, then
	// by name); Family is one of them.
	Families(ctx context.Context, uid string) ([]View, error)
	Family(ctx context.Context, familyID, uid string) (View, error)
	// CreateInvite saves an invitation an admin made; with an email, family.invited asks
	// notification to send it.
	CreateInvite(ctx context.Context, familyID string, by caller.Caller, inv Invite, email, language string) error
	// InviteInfo answers the accept page: the family's name and who invited.
	InviteInfo(ctx context.Context, token string) (familyName, invitedBy string, err error)
	// Accept makes the caller a member of the invitation's family and returns its id.
	Accept(ctx context.Context, token string, by caller.Caller) (string, error)
	// RemoveMember is the caller leaving (target is the caller) or an admin removing someone
	// (Remove decides); SetRole changes a member's role as ChangeRole allows.
	RemoveMember(ctx context.Context, familyID, callerUID, target string) error
	SetRole(ctx context.Context, familyID, callerUID, target, newRole string) error
	// Invites are the family's open invitations, newest first; RevokeInvite deletes one, named
	// by its token or its id (admins only).
	Invites(ctx context.Context, familyID, callerUID string) ([]OpenInvite, error)
	RevokeInvite(ctx context.Context, familyID, callerUID, ref string) error

	// Draw replaces the family's Secret Santa draw (admins only): draw gets the members and
	// returns the pairs, all under the family's lock so nobody joins or leaves meanwhile.
	Draw(ctx context.Context, familyID, callerUID, budget string, draw func([]Member) (Drawn, error)) (time.Time, int, error)
	// MyMatch reads the one pair whose giver is the caller.
	MyMatch(ctx context.Context, familyID, uid string) (Match, error)
	// Circle reads the whole draw for a participant, only when the draw chose
	// revealAfterExchange and the exchange day is over (checked in the query itself).
	Circle(ctx context.Context, familyID, uid string, now time.Time) ([]CirclePair, error)
	// SetExchange saves the exchange's date and place and the current draw's budget (admins
	// only), and answers what is saved; SetDrawOn sets or (nil) clears the planned draw date.
	SetExchange(ctx context.Context, familyID, callerUID string, ch ExchangeChange) (Exchange, error)
	SetDrawOn(ctx context.Context, familyID, callerUID string, drawOn *time.Time) error

	// SendMessage saves a message in one of the caller's conversations with its event;
	// Messages answers the caller's own two conversations, oldest first.
	SendMessage(ctx context.Context, familyID, uid, to, text string) (Message, error)
	Messages(ctx context.Context, familyID, uid string) ([]Message, error)

	// SaveListFamilies keeps the newest version of a list's family sharing (wishlist's
	// list.families); SharedLists answers the lists shared with each family, by family id.
	SaveListFamilies(ctx context.Context, l events.ListFamiliesData) error
	SharedLists(ctx context.Context, familyIDs []string) (map[string][]SharedList, error)
}

// View is a family as one member sees it.
type View struct {
	ID      string
	Name    string
	Role    string
	Members []Member
	Roles   map[string]string
	// DrawOn is the planned Secret Santa draw date, if an admin set one.
	DrawOn *time.Time
}

// OpenInvite is an invitation that still works, as the family's admins see it: never its
// token (only a hash is stored), but a handle to revoke it by.
type OpenInvite struct {
	ID            string    `json:"id"`
	Email         *string   `json:"email"`
	InvitedByName string    `json:"invitedByName"`
	CreatedAt     time.Time `json:"createdAt"`
	ExpiresAt     time.Time `json:"expiresAt"`
}

// Drawn is a draw to save: its pairs, the exclusions it used (shown to every participant) and
// whether each participant's own match tells the whole draw.
type Drawn struct {
	Pairs             []Assignment
	Exclusions        [][2]string
	EveryoneCanDeduce bool
	// RevealAfterExchange: the whole circle is shown to the participants once the exchange day
	// is over (chosen at the draw, shown to everyone).
	RevealAfterExchange bool
}

// Match is the caller's own Secret Santa match, with what every participant may know.
type Match struct {
	DrawnAt           time.Time
	Budget            string
	Assignee          Member
	Exclusions        [][2]string
	EveryoneCanDeduce bool
	// The exchange (the family's) and whether the draw reveals its circle after it.
	ExchangeOn          *time.Time
	Place               string
	RevealAfterExchange bool
}

// ExchangeChange is what an admin's PATCH changes: each field only when Set.
type ExchangeChange struct {
	SetExchangeOn bool
	ExchangeOn    *time.Time
	SetPlace      bool
	Place         string
	SetBudget     bool
	Budget        string
}

// Exchange is the family's exchange as saved, with the current draw's budget (nil: no draw).
type Exchange struct {
	ExchangeOn *time.Time
	Place      string
	Budget     *string
}

// CirclePair is one giver and receiver of a revealed circle.
type CirclePair struct {
	Giver, Receiver Member
}

// SharedList is a list shared with a family.
type SharedList struct {
	FamilyID  string
	ListID    string
	OwnerUID  string
	Name      string
	OwnerName string
	Token     string
	// RecipientName and ManagedBy describe a list kept for someone else (empty otherwise).
	RecipientName string
	RecipientUID  string
	ManagedBy     []string
}

// Message is one message of the caller's two conversations, from the caller's side: With is
// "giftee" or "santa", Mine whether the caller wrote it. It holds no uid of anyone.
type Message struct {
	ID     string
	With   string
	Mine   bool
	Text   string
	SentAt time.Time
}
