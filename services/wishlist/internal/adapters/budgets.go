package adapters

import (
	"context"
	"fmt"
	"sort"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// A giver's private budgets (docs/family.md: a giver's budget). Only their own requests ever
// read them; no other answer, event or notice carries one.

// Budgets answers GET /api/budgets: everyone the giver claims or pledges for this season, and
// everyone they set a budget for, by name.
func (r *Repository) Budgets(ctx context.Context, uid string) ([]domain.BudgetView, error) {
	list, err := r.shoppingList(ctx, uid)
	if err != nil {
		return nil, err
	}
	people := map[string]*domain.BudgetView{}
	sums := map[string]map[string]int64{}
	person := func(key, name string) *domain.BudgetView {
		if p := people[key]; p != nil {
			return p
		}
		p := &domain.BudgetView{Recipient: domain.BudgetRecipient{Key: key, DisplayName: name}, Totals: []domain.Amount{}}
		people[key], sums[key] = p, map[string]int64{}
		return p
	}
	for _, v := range list {
		p := person(v.Recipient.Key, v.Recipient.DisplayName)
		switch {
		case v.money != nil:
			sums[v.Recipient.Key][v.money.Currency] += v.money.Minor
		case v.Quantity > 0:
			p.Unpriced++
		}
		if v.Pledge != nil {
			sums[v.Recipient.Key][v.Pledge.Currency] += v.Pledge.minor
		}
	}
	rows, err := r.pool.Query(ctx, "SELECT recipient_key, display_name, amount_minor, currency FROM budgets WHERE user_id = $1", uid)
	if err != nil {
		return nil, fmt.Errorf("read budgets: %w", err)
	}
	budgets, err := pgx.CollectRows(rows, pgx.RowToStructByPos[budgetRow])
	if err != nil {
		return nil, fmt.Errorf("read budgets: %w", err)
	}
	for _, b := range budgets {
		p := person(b.Key, b.Name)
		a := domain.Money{Minor: b.Minor, Currency: b.Currency}.Show()
		p.Budget = &a
	}
	out := make([]domain.BudgetView, 0, len(people))
	for key, p := range people {
		curs := make([]string, 0, len(sums[key]))
		for c := range sums[key] {
			curs = append(curs, c)
		}
		sort.Strings(curs)
		for _, c := range curs {
			p.Totals = append(p.Totals, domain.Money{Minor: sums[key][c], Currency: c}.Show())
		}
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Recipient.DisplayName != out[j].Recipient.DisplayName {
			return out[i].Recipient.DisplayName < out[j].Recipient.DisplayName
		}
		return out[i].Recipient.Key < out[j].Recipient.Key
	})
	return out, nil
}

type budgetRow struct {
	Key, Name string
	Minor     int64
	Currency  string
}

// SetBudget keeps the giver's budget for one person.
func (r *Repository) SetBudget(ctx context.Context, uid string, b domain.Budget) error {
	_, err := r.pool.Exec(ctx, `INSERT INTO budgets (user_id, recipient_key, display_name, amount_minor, currency) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (user_id, recipient_key) DO UPDATE SET display_name = EXCLUDED.display_name, amount_minor = EXCLUDED.amount_minor,
			currency = EXCLUDED.currency`, uid, b.Key, b.DisplayName, b.Minor, b.Currency)
	if err != nil {
		return fmt.Errorf("keep budget: %w", err)
	}
	return nil
}

// DeleteBudget forgets the giver's budget for one person (none is fine).
func (r *Repository) DeleteBudget(ctx context.Context, uid, key string) error {
	if _, err := r.pool.Exec(ctx, "DELETE FROM budgets WHERE user_id = $1 AND recipient_key = $2", uid, key); err != nil {
		return fmt.Errorf("forget budget: %w", err)
	}
	return nil
}
