// Package domain holds the family rules that need no database: the Secret Santa draw.
package domain

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strings"
)

// Member is one person taking part in a draw.
type Member struct {
	UID         string
	DisplayName string
}

// Assignment says who gives a present to whom.
type Assignment struct {
	Giver    string // uid
	Receiver string // uid
}

// DrawImpossibleError says why no valid assignment exists; Message is for people.
type DrawImpossibleError struct{ Message string }

func (e *DrawImpossibleError) Error() string { return e.Message }

// DrawInputError is a request that cannot be drawn at all (not a family that cannot be drawn).
type DrawInputError struct{ Field, Message string }

func (e *DrawInputError) Error() string { return e.Message }

// ErrTooConstrained means a large family (more members than exactLimit) has valid assignments
// so rare that rejection sampling gave up; we refuse rather than draw with a bias.
var ErrTooConstrained = errors.New("these exclusions leave so few possible draws that the family is too large to draw fairly; remove some exclusions")

const (
	// exactLimit is the largest family for which the exact sampler (a subset DP with 2^n
	// uint64 counters, 8 MiB at 20) is used when rejection sampling is unlucky; 20! fits a uint64.
	exactLimit = 20
	// rejectionTries bounds the cheap path before the exact one takes over. Without
	// exclusions about 1 permutation in e is a derangement, so 64 tries almost never run out.
	rejectionTries = 64
	// largeRejectionTries bounds rejection sampling for families too large for the exact path.
	largeRejectionTries = 200_000
)

// Draw assigns each member exactly one other member to give to, so that everyone receives
// exactly once, nobody draws themselves and no excluded pair is matched either way.
//
// Every valid assignment is equally likely, whatever order members and exclusions come in:
// members are put in uid order first, so the outcome is a function of the sets and of the random
// bytes only; then uniform permutations are drawn (Fisher-Yates with unbiased integers) and
// rejected until one is valid, which is exactly uniform over the valid ones. When valid ones are
// rare, an exact sampler weighs each choice by the number of completions it leaves.
//
// random is crypto/rand.Reader in production; tests pass a seeded stream. The result is in giver
// uid order.
func Draw(members []Member, exclusions [][2]string, random io.Reader) ([]Assignment, error) {
	ms, _, allowed, err := prepare(members, exclusions)
	if err != nil {
		return nil, err
	}
	n := len(ms)

	u := uniform{r: random}
	tries := rejectionTries
	if n > exactLimit {
		tries = largeRejectionTries
	}
	var perm []int
	for range tries {
		p, ok, err := u.tryPermutation(allowed)
		if err != nil {
			return nil, err
		}
		if ok {
			perm = p
			break
		}
	}
	if perm == nil {
		if n > exactLimit {
			return nil, ErrTooConstrained
		}
		var err error
		if perm, err = u.exact(allowed); err != nil {
			return nil, err
		}
	}
	out := make([]Assignment, n)
	for g, r := range perm {
		out[g] = Assignment{Giver: ms[g].UID, Receiver: ms[r].UID}
	}
	return out, nil
}

// prepare puts the members in uid order and says who may give to whom (allowed[g][r]: g may
// give to r; exclusions work both ways). It refuses bad input and, saying why, exclusions
// that leave no valid assignment.
func prepare(members []Member, exclusions [][2]string) ([]Member, map[string]int, [][]bool, error) {
	ms := slices.Clone(members)
	slices.SortFunc(ms, func(a, b Member) int { return strings.Compare(a.UID, b.UID) })
	index := make(map[string]int, len(ms))
	for i, m := range ms {
		if m.UID == "" {
			return nil, nil, nil, &DrawInputError{"members", "every member needs a uid"}
		}
		if _, dup := index[m.UID]; dup {
			return nil, nil, nil, &DrawInputError{"members", fmt.Sprintf("%s is in the family twice", name(m))}
		}
		index[m.UID] = i
	}
	n := len(ms)
	switch n {
	case 0:
		return nil, nil, nil, &DrawImpossibleError{"The family has no members"}
	case 1:
		return nil, nil, nil, &DrawImpossibleError{fmt.Sprintf("%s is the only member", name(ms[0]))}
	}
	allowed := make([][]bool, n)
	for g := range allowed {
		allowed[g] = make([]bool, n)
		for r := range allowed[g] {
			allowed[g][r] = g != r
		}
	}
	for _, ex := range exclusions {
		a, okA := index[ex[0]]
		b, okB := index[ex[1]]
		if !okA || !okB {
			return nil, nil, nil, &DrawInputError{"exclusions", "an exclusion names someone who is not a member of the family"}
		}
		if a == b {
			return nil, nil, nil, &DrawInputError{"exclusions", fmt.Sprintf("%s cannot be excluded from themselves", name(ms[a]))}
		}
		allowed[a][b], allowed[b][a] = false, false
	}
	if err := explainImpossible(ms, allowed); err != nil {
		return nil, nil, nil, err
	}
	return ms, index, allowed, nil
}

// explainImpossible finds a maximum matching of givers to receivers (Kuhn's augmenting paths);
// when one giver stays unmatched, the givers and receivers reachable from it by alternating paths
// are a set of k givers who can only give to k-1 people between them (Hall's condition fails),
// which is the reason we tell the family.
func explainImpossible(ms []Member, allowed [][]bool) error {
	n := len(ms)
	matchOfReceiver := make([]int, n)
	for i := range matchOfReceiver {
		matchOfReceiver[i] = -1
	}
	var seenG, seenR []bool
	var augment func(g int) bool
	augment = func(g int) bool {
		seenG[g] = true
		for r := range n {
			if !allowed[g][r] || seenR[r] {
				continue
			}
			seenR[r] = true
			if matchOfReceiver[r] < 0 || augment(matchOfReceiver[r]) {
				matchOfReceiver[r] = g
				return true
			}
		}
		return false
	}
	for g := range n {
		seenG, seenR = make([]bool, n), make([]bool, n)
		if augment(g) {
			continue
		}
		var givers, receivers []string
		for i := range n {
			if seenG[i] {
				givers = append(givers, name(ms[i]))
			}
			if seenR[i] {
				receivers = append(receivers, name(ms[i]))
			}
		}
		switch {
		case n == 2:
			return &DrawImpossibleError{fmt.Sprintf("%s and %s exclude each other and are the only two members", name(ms[0]), name(ms[1]))}
		case len(receivers) == 0:
			return &DrawImpossibleError{fmt.Sprintf("%s excludes, or is excluded by, every other member, so there is nobody for %s to give to", givers[0], givers[0])}
		default:
			return &DrawImpossibleError{fmt.Sprintf("%s can only give to %s between them, and each of them needs someone different", join(givers), join(receivers))}
		}
	}
	return nil
}

// uniform turns a random byte stream into unbiased integers.
type uniform struct {
	r   io.Reader
	buf [8]byte
}

// below returns a uniform integer in [0, n), n > 0, rejecting the top sliver of the uint64
// range that would otherwise make small values likelier.
func (u *uniform) below(n uint64) (uint64, error) {
	limit := -n % n // 2^64 mod n: values below it are the biased remainder
	for {
		if _, err := io.ReadFull(u.r, u.buf[:]); err != nil {
			return 0, fmt.Errorf("random source: %w", err)
		}
		v := binary.LittleEndian.Uint64(u.buf[:])
		if v >= limit {
			return v % n, nil
		}
	}
}

// tryPermutation draws a uniform permutation by Fisher-Yates, position by position, and stops
// at the first giver whose receiver is not allowed: an abandoned attempt is simply a rejected
// one, so each valid permutation is still returned with probability 1/n! per attempt.
func (u *uniform) tryPermutation(allowed [][]bool) ([]int, bool, error) {
	n := len(allowed)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for g := range n {
		k, err := u.below(uint64(n - g))
		if err != nil {
			return nil, false, err
		}
		j := g + int(k)
		perm[g], perm[j] = perm[j], perm[g]
		if !allowed[g][perm[g]] {
			return nil, false, nil
		}
	}
	return perm, true, nil
}

// exact samples a valid assignment exactly uniformly for families of up to exactLimit members:
// ways[mask] counts the ways the first popcount(mask) givers can be given exactly the receivers
// in mask; the last giver then takes receiver r with probability ways[mask without r]/ways[mask],
// and so on down, which makes every complete assignment equally likely.
func (u *uniform) exact(allowed [][]bool) ([]int, error) {
	n := len(allowed)
	ways := make([]uint64, 1<<n)
	ways[0] = 1
	for mask := 1; mask < len(ways); mask++ {
		g := bits.OnesCount(uint(mask)) - 1
		var sum uint64
		for r := range n {
			if mask&(1<<r) != 0 && allowed[g][r] {
				sum += ways[mask&^(1<<r)]
			}
		}
		ways[mask] = sum
	}
	full := len(ways) - 1
	if ways[full] == 0 {
		return nil, &DrawImpossibleError{"No assignment satisfies these exclusions"}
	}
	perm := make([]int, n)
	mask := full
	for g := n - 1; g >= 0; g-- {
		pick, err := u.below(ways[mask])
		if err != nil {
			return nil, err
		}
		for r := range n {
			if mask&(1<<r) == 0 || !allowed[g][r] {
				continue
			}
			w := ways[mask&^(1<<r)]
			if pick < w {
				perm[g] = r
				mask &^= 1 << r
				break
			}
			pick -= w
		}
	}
	return perm, nil
}

func name(m Member) string {
	if m.DisplayName != "" {
		return m.DisplayName
	}
	return m.UID
}

// join lists names the way a sentence does: "Ann", "Ann and Ben", "Ann, Ben and Cleo".
func join(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
