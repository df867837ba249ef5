package domain

import (
	"slices"
	"testing"

	"github.com/santa-wishlist/santa/pkg/events"
)

func TestRequireAdminAndFamilyCount(t *testing.T) {
	for _, tc := range []struct {
		role string
		want error
	}{{RoleAdmin, nil}, {RoleMember, ErrNotAdmin}, {"", ErrNotAdmin}} {
		if got := RequireAdmin(tc.role); got != tc.want {
			t.Errorf("RequireAdmin(%q) = %v, want %v", tc.role, got, tc.want)
		}
	}
	for _, tc := range []struct {
		families int
		want     error
	}{{0, nil}, {MaxFamiliesPerUser - 1, nil}, {MaxFamiliesPerUser, ErrTooManyFamilies}, {MaxFamiliesPerUser + 1, ErrTooManyFamilies}} {
		if got := CheckFamilyCount(tc.families); got != tc.want {
			t.Errorf("CheckFamilyCount(%d) = %v, want %v", tc.families, got, tc.want)
		}
	}
}

func TestCheckInviteeAndAdmit(t *testing.T) {
	cleo, other := "Cleo@example.com", "leo@example.com"
	for _, tc := range []struct {
		name         string
		barred       bool
		invitedEmail *string
		callerEmail  string
		want         error
	}{
		{"a link", false, nil, "", nil},
		{"the invited address, another case", false, &cleo, "cleo@example.com", nil},
		{"another address", false, &other, "cleo@example.com", ErrInviteForSomeoneElse},
		{"no address on the account", false, &cleo, "", ErrInviteForSomeoneElse},
		{"left since the invitation", true, nil, "", ErrInviteNotFound},
		{"left, and another address", true, &other, "cleo@example.com", ErrInviteNotFound},
	} {
		if got := CheckInvitee(tc.barred, tc.invitedEmail, tc.callerEmail); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name              string
		already           bool
		members, families int
		join              bool
		want              error
	}{
		{"joins", false, 3, 2, true, nil},
		{"the 50th member", false, MaxMembers - 1, 0, true, nil},
		{"a member already changes nothing", true, MaxMembers, MaxFamiliesPerUser, false, nil},
		{"full", false, MaxMembers, 0, false, ErrFamilyFull},
		{"full before too many", false, MaxMembers, MaxFamiliesPerUser, false, ErrFamilyFull},
		{"in too many families", false, 3, MaxFamiliesPerUser, false, ErrTooManyFamilies},
	} {
		join, err := Admit(tc.already, tc.members, tc.families)
		if join != tc.join || err != tc.want {
			t.Errorf("%s: Admit = %v, %v, want %v, %v", tc.name, join, err, tc.join, tc.want)
		}
	}
}

func TestRemove(t *testing.T) {
	for _, tc := range []struct {
		name           string
		caller, target string
		s              Standing
		want           Departure
		err            error
	}{
		{"a member leaves", "m", "m", Standing{RoleMember, RoleMember, 3, 1}, Departure{}, nil},
		{"an admin removes a member", "a", "m", Standing{RoleAdmin, RoleMember, 3, 1}, Departure{RemovedBy: "a"}, nil},
		{"an admin removes another admin", "a", "b", Standing{RoleAdmin, RoleAdmin, 3, 2}, Departure{RemovedBy: "a"}, nil},
		{"a member removes someone", "m", "n", Standing{RoleMember, RoleMember, 3, 1}, Departure{}, ErrNotAdmin},
		{"a member removes the admin", "m", "a", Standing{RoleMember, RoleAdmin, 3, 1}, Departure{}, ErrNotAdmin},
		{"a member removes no member: not an admin first", "m", "x", Standing{RoleMember, "", 3, 1}, Departure{}, ErrNotAdmin},
		{"an admin removes no member", "a", "x", Standing{RoleAdmin, "", 3, 1}, Departure{}, ErrMemberNotFound},
		{"the last admin leaves while others remain", "a", "a", Standing{RoleAdmin, RoleAdmin, 2, 1}, Departure{}, ErrLastAdmin},
		{"one of two admins leaves", "a", "a", Standing{RoleAdmin, RoleAdmin, 2, 2}, Departure{}, nil},
		{"the last member leaves: the family goes", "a", "a", Standing{RoleAdmin, RoleAdmin, 1, 1}, Departure{DeleteFamily: true}, nil},
	} {
		got, err := Remove(tc.caller, tc.target, tc.s)
		if got != tc.want || err != tc.err {
			t.Errorf("%s: Remove = %+v, %v, want %+v, %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}

func TestChangeRole(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s       Standing
		newRole string
		want    error
	}{
		{"an admin makes a member admin", Standing{RoleAdmin, RoleMember, 3, 1}, RoleAdmin, nil},
		{"an admin demotes another admin", Standing{RoleAdmin, RoleAdmin, 3, 2}, RoleMember, nil},
		{"the last admin steps down", Standing{RoleAdmin, RoleAdmin, 3, 1}, RoleMember, ErrLastAdmin},
		{"the last admin alone steps down", Standing{RoleAdmin, RoleAdmin, 1, 1}, RoleMember, ErrLastAdmin},
		{"the last admin made admin again", Standing{RoleAdmin, RoleAdmin, 3, 1}, RoleAdmin, nil},
		{"a member promotes themselves", Standing{RoleMember, RoleMember, 3, 1}, RoleAdmin, ErrNotAdmin},
		{"a member demotes the admin", Standing{RoleMember, RoleAdmin, 3, 1}, RoleMember, ErrNotAdmin},
		{"no such member", Standing{RoleAdmin, "", 3, 1}, RoleAdmin, ErrMemberNotFound},
	} {
		if got := ChangeRole(tc.s, tc.newRole); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestErase(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Standing
		want Erasure
	}{
		{"alone", Standing{TargetRole: RoleAdmin, Members: 1, Admins: 1}, Erasure{Dissolve: true}},
		{"the last admin among others", Standing{TargetRole: RoleAdmin, Members: 3, Admins: 1}, Erasure{HandOverAdmin: true}},
		{"one of two admins", Standing{TargetRole: RoleAdmin, Members: 3, Admins: 2}, Erasure{}},
		{"a member", Standing{TargetRole: RoleMember, Members: 3, Admins: 1}, Erasure{}},
	} {
		if got := Erase(tc.s); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// The roles family.member.joined carries are these (its schema's enum is checked against
// events.MemberRoles in pkg/events).
func TestRolesAreTheEventsRoles(t *testing.T) {
	if got := []string{RoleAdmin, RoleMember}; !slices.Equal(got, events.MemberRoles) {
		t.Fatalf("family's roles %v, the event's %v", got, events.MemberRoles)
	}
}
