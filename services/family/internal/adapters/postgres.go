// Package adapters keeps families in PostgreSQL and announces their changes through the outbox.
package adapters

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/services/family/internal/domain"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations are the family service's versioned schema changes.
func Migrations() fs.FS { return migrate.Folder(migrationFiles) }

// Repository stores families: domain.Repository in PostgreSQL. Every method checks the caller's
// membership itself, so another family's data answers domain.ErrNotFound, like a family that
// does not exist.
type Repository struct {
	pool *pgxpool.Pool
}

var _ domain.Repository = (*Repository)(nil)

// NewRepository wraps a pool.
func NewRepository(pool *pgxpool.Pool) *Repository { return &Repository{pool: pool} }

// Ping reports whether PostgreSQL answers.
func (r *Repository) Ping(ctx context.Context) error { return r.pool.Ping(ctx) }

func enqueue(ctx context.Context, tx pgx.Tx, eventType, userID string, data any) error {
	env, err := events.NewEnvelope(eventType, userID, data)
	if err != nil {
		return err
	}
	return outbox.Enqueue(ctx, tx, env)
}

// lockUser serialises one user's joins, so the 10-family cap cannot be raced past.
func lockUser(ctx context.Context, tx pgx.Tx, uid string) error {
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 12))", uid); err != nil {
		return fmt.Errorf("lock user: %w", err)
	}
	return nil
}

// lockFamily locks the family's row and returns its name and the caller's role. Every
// membership change holds it, so the member cap and the last-admin rule see a stable family.
// A family the caller is not in is ErrNotFound.
func lockFamily(ctx context.Context, tx pgx.Tx, familyID, uid string) (name, role string, err error) {
	if _, perr := uuid.Parse(familyID); perr != nil {
		return "", "", domain.ErrNotFound
	}
	err = tx.QueryRow(ctx, `SELECT f.name, m.role FROM families f
		JOIN family_members m ON m.family_id = f.id AND m.uid = $2
		WHERE f.id = $1 FOR UPDATE OF f`, familyID, uid).Scan(&name, &role)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", "", domain.ErrNotFound
	case err != nil:
		return "", "", fmt.Errorf("lock family: %w", err)
	}
	return name, role, nil
}

// lockAsAdmin is lockFamily for an admin-only change.
func lockAsAdmin(ctx context.Context, tx pgx.Tx, familyID, uid string) (name string, err error) {
	name, role, err := lockFamily(ctx, tx, familyID, uid)
	if err != nil {
		return "", err
	}
	return name, domain.RequireAdmin(role)
}

// standing reads what a change of target's membership depends on, under the family's lock.
func standing(ctx context.Context, tx pgx.Tx, familyID, callerRole, target string) (domain.Standing, error) {
	s := domain.Standing{CallerRole: callerRole}
	err := tx.QueryRow(ctx, `SELECT
			coalesce((SELECT role FROM family_members WHERE family_id = $1 AND uid = $2), ''),
			(SELECT count(*) FROM family_members WHERE family_id = $1),
			(SELECT count(*) FROM family_members WHERE family_id = $1 AND role = 'admin')`,
		familyID, target).Scan(&s.TargetRole, &s.Members, &s.Admins)
	if err != nil {
		return s, fmt.Errorf("read the family's members: %w", err)
	}
	return s, nil
}

func countFamilies(ctx context.Context, tx pgx.Tx, uid string) (int, error) {
	var n int
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM family_members WHERE uid = $1", uid).Scan(&n); err != nil {
		return 0, fmt.Errorf("count the user's families: %w", err)
	}
	return n, nil
}

func insertInvite(ctx context.Context, tx pgx.Tx, familyID string, by caller.Caller, inv domain.Invite, email string) error {
	var mail *string
	if email != "" {
		mail = &email
	}
	_, err := tx.Exec(ctx, `INSERT INTO family_invites (token_hash, family_id, invited_by, invited_by_name, email, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, domain.TokenHash(inv.Token), familyID, by.UID, by.Name, mail, inv.ExpiresAt)
	if err != nil {
		return fmt.Errorf("save the invitation: %w", err)
	}
	return nil
}

// CreateFamily makes a family with the caller as its admin, and its first invitation link.
func (r *Repository) CreateFamily(ctx context.Context, by caller.Caller, name string, inv domain.Invite) (string, error) {
	id := uuid.NewString()
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if err := lockUser(ctx, tx, by.UID); err != nil {
			return err
		}
		n, err := countFamilies(ctx, tx, by.UID)
		if err != nil {
			return err
		}
		if err := domain.CheckFamilyCount(n); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO families (id, name, created_by) VALUES ($1, $2, $3)", id, name, by.UID); err != nil {
			return fmt.Errorf("insert the family: %w", err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO family_members (family_id, uid, display_name, role) VALUES ($1, $2, $3, $4)",
			id, by.UID, by.Name, domain.RoleAdmin); err != nil {
			return fmt.Errorf("insert its admin: %w", err)
		}
		if err := insertInvite(ctx, tx, id, by, inv, ""); err != nil {
			return err
		}
		// The maker is the family's first member: wishlist learns every membership from
		// family.member.joined (notification tells nobody, as the admin is the new member).
		return enqueue(ctx, tx, events.TypeFamilyMemberJoined, by.UID, events.MemberJoinedData{
			FamilyID: id, FamilyName: name, UID: by.UID, DisplayName: by.Name, Role: domain.RoleAdmin, Admins: []string{by.UID},
		})
	})
	if err != nil {
		return "", fmt.Errorf("creating a family: %w", err)
	}
	return id, nil
}

// Families are the caller's families, oldest first, with their members (admins first, then
// by name).
func (r *Repository) Families(ctx context.Context, uid string) ([]domain.View, error) {
	rows, err := r.pool.Query(ctx, `SELECT f.id, f.name, me.role, m.uid, m.display_name, m.role, f.draw_on
		FROM family_members me
		JOIN families f ON f.id = me.family_id
		JOIN family_members m ON m.family_id = f.id
		WHERE me.uid = $1
		ORDER BY f.created_at, f.id, m.role, m.display_name, m.uid`, uid)
	if err != nil {
		return nil, fmt.Errorf("reading the user's families: %w", err)
	}
	defer rows.Close()
	views := []domain.View{}
	for rows.Next() {
		var id, name, myRole, muid, mname, mrole string
		var drawOn *time.Time
		if err := rows.Scan(&id, &name, &myRole, &muid, &mname, &mrole, &drawOn); err != nil {
			return nil, fmt.Errorf("reading the user's families: %w", err)
		}
		if len(views) == 0 || views[len(views)-1].ID != id {
			views = append(views, domain.View{ID: id, Name: name, Role: myRole, Roles: map[string]string{}, DrawOn: drawOn})
		}
		v := &views[len(views)-1]
		v.Members = append(v.Members, domain.Member{UID: muid, DisplayName: mname})
		v.Roles[muid] = mrole
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the user's families: %w", err)
	}
	return views, nil
}

// Family is one of the caller's families.
func (r *Repository) Family(ctx context.Context, familyID, uid string) (domain.View, error) {
	views, err := r.Families(ctx, uid)
	if err != nil {
		return domain.View{}, err
	}
	for _, v := range views {
		if v.ID == familyID {
			return v, nil
		}
	}
	return domain.View{}, domain.ErrNotFound
}

// CreateInvite saves an invitation an admin made; with an email, family.invited asks
// notification to send it.
func (r *Repository) CreateInvite(ctx context.Context, familyID string, by caller.Caller, inv domain.Invite, email, language string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		name, err := lockAsAdmin(ctx, tx, familyID, by.UID)
		if err != nil {
			return err
		}
		// A family has one working link at a time: "New link" replaces the one handed out.
		if email == "" {
			if _, err := tx.Exec(ctx, "DELETE FROM family_invites WHERE family_id = $1 AND email IS NULL", familyID); err != nil {
				return fmt.Errorf("revoke the previous link: %w", err)
			}
		}
		if err := insertInvite(ctx, tx, familyID, by, inv, email); err != nil {
			return err
		}
		if email == "" {
			return nil
		}
		return enqueue(ctx, tx, events.TypeFamilyInvited, by.UID, events.FamilyInvitedData{
			FamilyID: familyID, FamilyName: name, InvitedBy: by.Name, Email: email, URL: inv.URL, ExpiresAt: inv.ExpiresAt,
			Language: language,
		})
	})
	if err != nil {
		return fmt.Errorf("inviting to family %s: %w", familyID, err)
	}
	return nil
}

// InviteInfo answers the accept page: the family's name and who invited.
func (r *Repository) InviteInfo(ctx context.Context, token string) (familyName, invitedBy string, err error) {
	err = r.pool.QueryRow(ctx, `SELECT f.name, i.invited_by_name FROM family_invites i
		JOIN families f ON f.id = i.family_id
		WHERE i.token_hash = $1 AND i.expires_at > now()`, domain.TokenHash(token)).Scan(&familyName, &invitedBy)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", "", domain.ErrInviteNotFound
	case err != nil:
		return "", "", fmt.Errorf("reading an invitation: %w", err)
	}
	return familyName, invitedBy, nil
}

// Accept makes the caller a member of the invitation's family (already a member: nothing
// changes) and returns the family's id. For someone who left or was removed after the
// invitation was made, it does not exist; an email invitation is for that address only.
func (r *Repository) Accept(ctx context.Context, token string, by caller.Caller) (string, error) {
	var familyID string
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		var email *string
		var barred bool
		if err := tx.QueryRow(ctx, `SELECT i.family_id, i.email, EXISTS (SELECT 1 FROM family_departures d
				WHERE d.family_id = i.family_id AND d.uid = $2 AND d.left_at >= i.created_at)
			FROM family_invites i WHERE i.token_hash = $1 AND i.expires_at > now()`,
			domain.TokenHash(token), by.UID).Scan(&familyID, &email, &barred); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return domain.ErrInviteNotFound
			}
			return fmt.Errorf("read the invitation: %w", err)
		}
		if err := domain.CheckInvitee(barred, email, by.Email); err != nil {
			return err
		}
		if err := lockUser(ctx, tx, by.UID); err != nil {
			return err
		}
		var name string
		var members int
		var already bool
		err := tx.QueryRow(ctx, `SELECT f.name,
				(SELECT count(*) FROM family_members WHERE family_id = f.id),
				EXISTS (SELECT 1 FROM family_members WHERE family_id = f.id AND uid = $2)
			FROM families f WHERE f.id = $1 FOR UPDATE`, familyID, by.UID).Scan(&name, &members, &already)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return domain.ErrInviteNotFound
		case err != nil:
			return fmt.Errorf("lock the family: %w", err)
		}
		n, err := countFamilies(ctx, tx, by.UID)
		if err != nil {
			return err
		}
		if join, err := domain.Admit(already, members, n); !join || err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO family_members (family_id, uid, display_name, role) VALUES ($1, $2, $3, $4)",
			familyID, by.UID, by.Name, domain.RoleMember); err != nil {
			return fmt.Errorf("insert the member: %w", err)
		}
		admins, err := adminsOf(ctx, tx, familyID)
		if err != nil {
			return err
		}
		return enqueue(ctx, tx, events.TypeFamilyMemberJoined, by.UID, events.MemberJoinedData{
			FamilyID: familyID, FamilyName: name, UID: by.UID, DisplayName: by.Name, Role: domain.RoleMember, Admins: admins,
		})
	})
	if err != nil {
		return "", fmt.Errorf("accepting an invitation: %w", err)
	}
	return familyID, nil
}

func adminsOf(ctx context.Context, tx pgx.Tx, familyID string) ([]string, error) {
	rows, err := tx.Query(ctx, "SELECT uid FROM family_members WHERE family_id = $1 AND role = $2 ORDER BY uid", familyID, domain.RoleAdmin)
	if err != nil {
		return nil, fmt.Errorf("read the admins: %w", err)
	}
	admins, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("read the admins: %w", err)
	}
	return admins, nil
}

// RemoveMember removes target from the family: the caller leaving (target is the caller) or
// an admin removing someone (domain.Remove decides). The last member leaving deletes the
// family. A draw that included the member is cancelled: its pairs no longer add up, and an
// admin draws again.
func (r *Repository) RemoveMember(ctx context.Context, familyID, callerUID, target string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		name, role, err := lockFamily(ctx, tx, familyID, callerUID)
		if err != nil {
			return err
		}
		s, err := standing(ctx, tx, familyID, role, target)
		if err != nil {
			return err
		}
		d, err := domain.Remove(callerUID, target, s)
		if err != nil {
			return err
		}
		ev := events.MemberLeftData{FamilyID: familyID, FamilyName: name, UID: target, RemovedBy: d.RemovedBy, FamilyDeleted: d.DeleteFamily}
		if d.DeleteFamily {
			if _, err := tx.Exec(ctx, "DELETE FROM families WHERE id = $1", familyID); err != nil {
				return fmt.Errorf("delete the family: %w", err)
			}
		} else {
			if _, err := tx.Exec(ctx, "DELETE FROM family_members WHERE family_id = $1 AND uid = $2", familyID, target); err != nil {
				return fmt.Errorf("delete the member: %w", err)
			}
			// No invitation made before now lets them back in.
			if _, err := tx.Exec(ctx, `INSERT INTO family_departures (family_id, uid, left_at) VALUES ($1, $2, now())
				ON CONFLICT (family_id, uid) DO UPDATE SET left_at = EXCLUDED.left_at`, familyID, target); err != nil {
				return fmt.Errorf("record the departure: %w", err)
			}
			tag, err := tx.Exec(ctx, `DELETE FROM secret_santa_draws WHERE family_id = $1
				AND EXISTS (SELECT 1 FROM secret_santa_pairs WHERE family_id = $1 AND (giver = $2 OR receiver = $2))`, familyID, target)
			if err != nil {
				return fmt.Errorf("cancel the draw: %w", err)
			}
			ev.DrawCancelled = tag.RowsAffected() > 0
		}
		return enqueue(ctx, tx, events.TypeFamilyMemberLeft, target, ev)
	})
	if err != nil {
		return fmt.Errorf("removing member %s from family %s: %w", target, familyID, err)
	}
	return nil
}

// SetRole makes a member an admin or a member again, as domain.ChangeRole allows.
func (r *Repository) SetRole(ctx context.Context, familyID, callerUID, target, newRole string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		_, role, err := lockFamily(ctx, tx, familyID, callerUID)
		if err != nil {
			return err
		}
		s, err := standing(ctx, tx, familyID, role, target)
		if err != nil {
			return err
		}
		if err := domain.ChangeRole(s, newRole); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE family_members SET role = $3 WHERE family_id = $1 AND uid = $2", familyID, target, newRole); err != nil {
			return fmt.Errorf("save the role: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("making %s %s in family %s: %w", target, newRole, familyID, err)
	}
	return nil
}
