package domain

// The membership rules: who may change a family and what a change does to it. The adapter
// loads the family's state under its lock, asks these, and writes what they decided.

// RequireAdmin is the rule of every admin-only change (inviting, revoking an invitation,
// drawing, planning a draw, changing a role): the caller's role must be admin.
func RequireAdmin(callerRole string) error {
	if callerRole != RoleAdmin {
		return ErrNotAdmin
	}
	return nil
}

// CheckFamilyCount says whether someone in families families may make or join another.
func CheckFamilyCount(families int) error {
	if families >= MaxFamiliesPerUser {
		return ErrTooManyFamilies
	}
	return nil
}

// CheckInvitee says whether the caller may use an invitation: not after they left or were
// removed since it was made (for them it does not exist), and an email invitation only with
// that address. invitedEmail is nil for a link.
func CheckInvitee(barred bool, invitedEmail *string, callerEmail string) error {
	switch {
	case barred:
		return ErrInviteNotFound
	case invitedEmail != nil && !SameEmail(*invitedEmail, callerEmail):
		return ErrInviteForSomeoneElse
	}
	return nil
}

// Admit says whether the caller joins a family of members members, being in families
// families: false without an error when they are a member already (nothing changes).
func Admit(alreadyMember bool, members, families int) (bool, error) {
	switch {
	case alreadyMember:
		return false, nil
	case members >= MaxMembers:
		return false, ErrFamilyFull
	}
	if err := CheckFamilyCount(families); err != nil {
		return false, err
	}
	return true, nil
}

// Standing is a family as a change of one member (the target) sees it, read under the
// family's lock.
type Standing struct {
	CallerRole string
	TargetRole string // "" when the target is no member
	Members    int
	Admins     int
}

// lastAdmin says whether the target is the family's only admin.
func (s Standing) lastAdmin() bool { return s.TargetRole == RoleAdmin && s.Admins == 1 }

// Departure is what removing a member does.
type Departure struct {
	// DeleteFamily: they were its last member, so the family goes with them.
	DeleteFamily bool
	// RemovedBy is the admin who removed them; empty when they left.
	RemovedBy string
}

// Remove decides callerUID removing targetUID (themselves: leaving). Anyone may leave; only
// an admin removes others; the last admin cannot go while others remain, so a family always
// has an admin.
func Remove(callerUID, targetUID string, s Standing) (Departure, error) {
	if targetUID != callerUID {
		if err := RequireAdmin(s.CallerRole); err != nil {
			return Departure{}, err
		}
	}
	switch {
	case s.TargetRole == "":
		return Departure{}, ErrMemberNotFound
	case s.lastAdmin() && s.Members > 1:
		return Departure{}, ErrLastAdmin
	}
	d := Departure{DeleteFamily: s.Members == 1}
	if targetUID != callerUID {
		d.RemovedBy = callerUID
	}
	return d, nil
}

// ChangeRole decides an admin-only change of the target's role to newRole: the last admin
// cannot step down (alone in the family too: someone must be able to invite).
func ChangeRole(s Standing, newRole string) error {
	if err := RequireAdmin(s.CallerRole); err != nil {
		return err
	}
	switch {
	case s.TargetRole == "":
		return ErrMemberNotFound
	case s.lastAdmin() && newRole == RoleMember:
		return ErrLastAdmin
	}
	return nil
}

// Erasure is what a deleted account's leaving does to one family: unlike leaving, nothing
// refuses it.
type Erasure struct {
	// Dissolve: they were its last member.
	Dissolve bool
	// HandOverAdmin: they were its last admin, so the member who joined first becomes one.
	HandOverAdmin bool
}

// Erase decides a deleted account's (the target's) leaving of a family.
func Erase(s Standing) Erasure {
	if s.Members == 1 {
		return Erasure{Dissolve: true}
	}
	return Erasure{HandOverAdmin: s.lastAdmin()}
}
