package domain

import (
	"fmt"
	"slices"
	"strings"
)

// A draw is secret when no participant, knowing their own match and the exclusions (every
// participant sees them), can work out anyone else's match. With exclusions chosen to leave
// one possible cycle, an admin would otherwise know every pair from their own.
//
// Valid draws are the perfect matchings of the bipartite graph giver → receiver (no self, no
// excluded pair). Participant p who gives to q learns r's match exactly when, among the
// perfect matchings that contain p→q, r has one possible receiver only. So for every edge
// p→q that some valid draw uses, the check takes one perfect matching M of the graph without
// giver p and receiver q and asks which other edges some perfect matching uses: g→r (r
// matched to g' in M) is in one iff g and g' lie on a common alternating cycle, that is in the
// same strongly connected component of the graph "g → g' when g may give to M(g')"
// (Dulmage–Mendelsohn). A giver alone in its component has its M edge only: its match is
// known. M is found by repairing one global matching with a single augmenting path, so each
// edge costs O(n²) and the whole check O(n⁴): a few milliseconds for 50 members.

// MinSecretDraw is the smallest number of participants a draw can keep secret: with two,
// each knows the other gives to them; with three, the two possible draws are the two
// directions of the circle, and each participant's own match says which.
const MinSecretDraw = 4

// MaxExclusions bounds a draw's exclusions: naming the ones to drop checks the set once per
// exclusion (a few milliseconds each for 50 members), and no family needs more.
const MaxExclusions = 100

// DrawNotSecretError refuses exclusions under which someone could deduce another's match.
// Drop holds the positions (in the request's order) of the exclusions to drop: the others,
// kept in order while they stay secret, are a set that can be drawn.
type DrawNotSecretError struct {
	Message string
	Drop    []int
	// Names are the dropped exclusions as people read them ("Ann–Ben"), in Drop's order.
	Names []string
}

func (e *DrawNotSecretError) Error() string { return e.Message }

// CheckSecret says whether a draw of members under exclusions keeps every match secret. It
// refuses what Draw refuses (bad input, no valid assignment) with the same errors. With fewer
// than MinSecretDraw members nothing can keep the secret: the draw may go ahead and
// everyoneCanDeduce is true. Otherwise exclusions that let someone deduce another's match are
// a *DrawNotSecretError naming the exclusions to drop.
func CheckSecret(members []Member, exclusions [][2]string) (everyoneCanDeduce bool, err error) {
	if len(exclusions) > MaxExclusions {
		return false, &DrawInputError{"exclusions", fmt.Sprintf("A draw can have at most %d exclusions.", MaxExclusions)}
	}
	ms, index, allowed, err := prepare(members, exclusions)
	if err != nil {
		return false, err
	}
	n := len(ms)
	if n < MinSecretDraw {
		return true, nil
	}
	if isSecret(allowed) {
		return false, nil
	}
	// Keep the exclusions in the order given while the kept set stays secret; drop the rest.
	kept := make([][]bool, n)
	for g := range kept {
		kept[g] = make([]bool, n)
		for r := range kept[g] {
			kept[g][r] = g != r
		}
	}
	var drop []int
	var names []string
	for i, ex := range exclusions {
		a, b := index[ex[0]], index[ex[1]]
		if !kept[a][b] { // the same pair again: already kept
			continue
		}
		kept[a][b], kept[b][a] = false, false
		if isSecret(kept) {
			continue
		}
		kept[a][b], kept[b][a] = true, true
		drop = append(drop, i)
		names = append(names, name(ms[a])+"–"+name(ms[b]))
	}
	return false, &DrawNotSecretError{Drop: drop, Names: names, Message: fmt.Sprintf(
		"These exclusions leave so few possible draws that someone could work out another person's match from their own: drop %s",
		join(names))}
}

// isSecret reports whether allowed has a perfect matching and no participant, knowing their
// own receiver, can deduce another giver's receiver.
func isSecret(allowed [][]bool) bool {
	n := len(allowed)
	match := perfectMatching(allowed)
	if match == nil {
		return false
	}
	g := newMatchingGraph(n)
	// Which edges some valid draw uses (only those can be a participant's own match).
	g.components(allowed, match, -1)
	usable := make([][]bool, n)
	for p := range n {
		usable[p] = make([]bool, n)
		for q := range n {
			usable[p][q] = match[p] == q || (allowed[p][q] && g.comp[p] == g.comp[g.giverOf[q]])
		}
	}
	repaired := make([]int, n)
	for p := range n {
		for q := range n {
			if !usable[p][q] {
				continue
			}
			copy(repaired, match)
			if !g.repair(allowed, repaired, p, q) {
				return false // cannot happen: p→q is in a valid draw
			}
			if g.components(allowed, repaired, p) {
				return false
			}
		}
	}
	return true
}

// perfectMatching is one valid draw (receiver of each giver), or nil when there is none.
func perfectMatching(allowed [][]bool) []int {
	n := len(allowed)
	giverOf := make([]int, n)
	for r := range giverOf {
		giverOf[r] = -1
	}
	seen := make([]bool, n)
	var augment func(g int) bool
	augment = func(g int) bool {
		for r := range n {
			if !allowed[g][r] || seen[r] {
				continue
			}
			seen[r] = true
			if giverOf[r] < 0 || augment(giverOf[r]) {
				giverOf[r] = g
				return true
			}
		}
		return false
	}
	for g := range n {
		clear(seen)
		if !augment(g) {
			return nil
		}
	}
	match := make([]int, n)
	for r, g := range giverOf {
		match[g] = r
	}
	return match
}

// matchingGraph holds the scratch space of the check, reused for every edge.
type matchingGraph struct {
	n       int
	giverOf []int // receiver → giver in the matching at hand
	// Tarjan's state.
	comp, low, order, stack []int
	onStack                 []bool
	counter, comps          int
	size                    []int
	// The augmenting path search.
	parent, queue []int
}

func newMatchingGraph(n int) *matchingGraph {
	return &matchingGraph{n: n, giverOf: make([]int, n), comp: make([]int, n), low: make([]int, n),
		order: make([]int, n), onStack: make([]bool, n), size: make([]int, n), parent: make([]int, n)}
}

// repair turns match (a perfect matching of the whole graph) into a perfect matching of the
// graph without giver p and receiver q, in place; match[p] is then meaningless. Removing the
// two leaves the giver who had q without a receiver and p's receiver without a giver: one
// augmenting path between them (breadth first) mends it.
func (g *matchingGraph) repair(allowed [][]bool, match []int, p, q int) bool {
	n := g.n
	for r := range g.giverOf {
		g.giverOf[r] = -1
	}
	for giver, r := range match {
		if giver != p {
			g.giverOf[r] = giver
		}
	}
	if match[p] == q {
		return true
	}
	free, target := g.giverOf[q], match[p]
	g.giverOf[q] = -1
	// parent[r]: the giver from which receiver r was reached (-1: not yet).
	for r := range g.parent {
		g.parent[r] = -1
	}
	g.queue = append(g.queue[:0], free)
	for len(g.queue) > 0 {
		giver := g.queue[0]
		g.queue = g.queue[1:]
		for r := range n {
			if r == q || !allowed[giver][r] || g.parent[r] >= 0 {
				continue
			}
			g.parent[r] = giver
			if r == target {
				// Flip the path back to the free giver.
				for r >= 0 {
					from := g.parent[r]
					next := match[from]
					if from == free {
						next = -1
					}
					match[from] = r
					g.giverOf[r] = from
					r = next
				}
				return true
			}
			g.queue = append(g.queue, g.giverOf[r])
		}
	}
	return false
}

// components computes the strongly connected components (Tarjan) of the graph on givers
// (without skip, -1 for none) where giver a points to giver b when a may give to b's
// receiver in match, and reports whether some giver is alone in its component: that giver's
// receiver is forced.
func (g *matchingGraph) components(allowed [][]bool, match []int, skip int) bool {
	for r := range g.giverOf {
		g.giverOf[r] = -1
	}
	for giver, r := range match {
		if giver != skip {
			g.giverOf[r] = giver
		}
	}
	for i := range g.n {
		g.order[i], g.comp[i], g.onStack[i] = -1, -1, false
	}
	g.counter, g.comps, g.stack = 0, 0, g.stack[:0]
	forced := false
	var visit func(a int)
	visit = func(a int) {
		g.order[a], g.low[a] = g.counter, g.counter
		g.counter++
		g.stack = append(g.stack, a)
		g.onStack[a] = true
		for r, ok := range allowed[a] {
			b := g.giverOf[r]
			if !ok || b < 0 || b == a {
				continue
			}
			if g.order[b] < 0 {
				visit(b)
				g.low[a] = min(g.low[a], g.low[b])
			} else if g.onStack[b] {
				g.low[a] = min(g.low[a], g.order[b])
			}
		}
		if g.low[a] != g.order[a] {
			return
		}
		size := 0
		for {
			top := g.stack[len(g.stack)-1]
			g.stack = g.stack[:len(g.stack)-1]
			g.onStack[top] = false
			g.comp[top] = g.comps
			size++
			if top == a {
				break
			}
		}
		if size == 1 {
			forced = true
		}
		g.comps++
	}
	for a := range g.n {
		if a != skip && g.order[a] < 0 {
			visit(a)
		}
	}
	return forced
}

// NormalExclusions is the set of exclusions as a draw keeps it: each pair in uid order, each
// once, sorted, so it says nothing of the order the admin ticked them in.
func NormalExclusions(exclusions [][2]string) [][2]string {
	out := make([][2]string, 0, len(exclusions))
	for _, e := range exclusions {
		if e[1] < e[0] {
			e[0], e[1] = e[1], e[0]
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	return slices.Compact(out)
}
