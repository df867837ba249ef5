package domain

import (
	cryptorand "crypto/rand"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// seeded is the tests' own random source: fixed seeds keep every statistical test stable
// (production passes crypto/rand.Reader).
func seeded(seed uint64) *rand.ChaCha8 {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(s)
}

func family(names ...string) []Member {
	ms := make([]Member, len(names))
	for i, n := range names {
		ms[i] = Member{UID: "uid-" + strings.ToLower(n), DisplayName: n}
	}
	return ms
}

func ex(a, b string) [2]string {
	return [2]string{"uid-" + strings.ToLower(a), "uid-" + strings.ToLower(b)}
}

// checkValid fails the test unless the assignment is a valid draw of ms under exclusions.
func checkValid(t *testing.T, ms []Member, exclusions [][2]string, got []Assignment) {
	t.Helper()
	if len(got) != len(ms) {
		t.Fatalf("%d assignments for %d members", len(got), len(ms))
	}
	excluded := map[[2]string]bool{}
	for _, e := range exclusions {
		excluded[e] = true
		excluded[[2]string{e[1], e[0]}] = true
	}
	members := map[string]bool{}
	for _, m := range ms {
		members[m.UID] = true
	}
	gives, receives := map[string]int{}, map[string]int{}
	for _, a := range got {
		if !members[a.Giver] || !members[a.Receiver] {
			t.Fatalf("%v names a stranger", a)
		}
		if a.Giver == a.Receiver {
			t.Fatalf("%s draws themselves", a.Giver)
		}
		if excluded[[2]string{a.Giver, a.Receiver}] {
			t.Fatalf("excluded pair drawn: %v", a)
		}
		gives[a.Giver]++
		receives[a.Receiver]++
	}
	for uid := range members {
		if gives[uid] != 1 || receives[uid] != 1 {
			t.Fatalf("%s gives %d and receives %d", uid, gives[uid], receives[uid])
		}
	}
}

func TestDrawImpossibleSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		members    []Member
		exclusions [][2]string
		want       string
	}{
		{nil, nil, "The family has no members"},
		{family("Ann"), nil, "Ann is the only member"},
		{family("Ben", "Cleo"), [][2]string{ex("Cleo", "Ben")}, "Ben and Cleo exclude each other and are the only two members"},
		{family("Ann", "Ben", "Cleo"), [][2]string{ex("Ann", "Ben"), ex("Cleo", "Ann")},
			"Ann excludes, or is excluded by, every other member, so there is nobody for Ann to give to"},
		// Ann and Ben may not draw each other, so both would have to give to Cleo.
		{family("Ann", "Ben", "Cleo"), [][2]string{ex("Ann", "Ben")},
			"Ann and Ben can only give to Cleo between them, and each of them needs someone different"},
		// Three of five may only give to the same two people.
		{family("Ann", "Ben", "Cleo", "Dan", "Eve"), [][2]string{ex("Ann", "Ben"), ex("Ann", "Cleo"), ex("Ben", "Cleo")},
			"Ann, Ben and Cleo can only give to Dan and Eve between them, and each of them needs someone different"},
	} {
		_, err := Draw(tc.members, tc.exclusions, seeded(1))
		var impossible *DrawImpossibleError
		if !errors.As(err, &impossible) {
			t.Fatalf("%v / %v: want draw impossible, got %v", tc.members, tc.exclusions, err)
		}
		if impossible.Message != tc.want {
			t.Errorf("message %q, want %q", impossible.Message, tc.want)
		}
	}
}

func TestDrawRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		members    []Member
		exclusions [][2]string
		field      string
	}{
		{family("Ann", "Ben", "Cleo"), [][2]string{ex("Ann", "Zed")}, "exclusions"},
		{family("Ann", "Ben", "Cleo"), [][2]string{ex("Ann", "Ann")}, "exclusions"},
		{append(family("Ann", "Ben"), family("Ann")...), nil, "members"},
		{[]Member{{UID: ""}, {UID: "b"}}, nil, "members"},
	} {
		_, err := Draw(tc.members, tc.exclusions, seeded(1))
		var bad *DrawInputError
		if !errors.As(err, &bad) || bad.Field != tc.field {
			t.Errorf("%v / %v: want an input error on %s, got %v", tc.members, tc.exclusions, tc.field, err)
		}
	}
}

// ryser counts the valid assignments as the permanent of the allowed matrix (Ryser's formula):
// an independent check of both the matching and the exact sampler.
func ryser(ms []Member, exclusions [][2]string) int64 {
	n := len(ms)
	excluded := map[[2]string]bool{}
	for _, e := range exclusions {
		excluded[e], excluded[[2]string{e[1], e[0]}] = true, true
	}
	a := make([][]int64, n)
	for i := range a {
		a[i] = make([]int64, n)
		for j := range a[i] {
			if i != j && !excluded[[2]string{ms[i].UID, ms[j].UID}] {
				a[i][j] = 1
			}
		}
	}
	var total int64
	for s := 1; s < 1<<n; s++ {
		prod := int64(1)
		for i := range n {
			var row int64
			for j := range n {
				if s&(1<<j) != 0 {
					row += a[i][j]
				}
			}
			prod *= row
		}
		if (n-popcount(s))%2 == 1 {
			prod = -prod
		}
		total += prod
	}
	return total
}

func popcount(s int) int {
	c := 0
	for ; s != 0; s &= s - 1 {
		c++
	}
	return c
}

func TestDrawRandomFamiliesAreValid(t *testing.T) {
	rng := rand.New(seeded(42))
	possible, impossible := 0, 0
	for n := 2; n <= 12; n++ {
		for trial := range 40 {
			ms := make([]Member, n)
			for i := range ms {
				ms[i] = Member{UID: fmt.Sprintf("u%02d-%d", rng.IntN(100), i), DisplayName: fmt.Sprintf("P%d", i)}
			}
			density := []float64{0, 0.15, 0.4, 0.7, 0.9}[trial%5]
			var exclusions [][2]string
			for i := range n {
				for j := i + 1; j < n; j++ {
					if rng.Float64() < density {
						exclusions = append(exclusions, [2]string{ms[i].UID, ms[j].UID})
					}
				}
			}
			count := ryser(ms, exclusions)
			got, err := Draw(ms, exclusions, seeded(uint64(n*1000+trial)))
			var imp *DrawImpossibleError
			switch {
			case count == 0:
				if !errors.As(err, &imp) || imp.Message == "" {
					t.Fatalf("n=%d exclusions=%v: no valid assignment exists, got %v, %v", n, exclusions, got, err)
				}
				impossible++
			case err != nil:
				t.Fatalf("n=%d exclusions=%v: %d valid assignments exist, got %v", n, exclusions, count, err)
			default:
				checkValid(t, ms, exclusions, got)
				possible++
			}
		}
	}
	if possible < 100 || impossible < 50 {
		t.Fatalf("the random families did not exercise both outcomes: %d possible, %d impossible", possible, impossible)
	}
}

func TestDrawIgnoresOrderOfMembersAndExclusions(t *testing.T) {
	ms := family("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus")
	exclusions := [][2]string{ex("Ann", "Ben"), ex("Cleo", "Dan"), ex("Eve", "Gus")}
	rng := rand.New(seeded(9))
	for seed := range uint64(50) {
		want, err := Draw(ms, exclusions, seeded(seed))
		if err != nil {
			t.Fatal(err)
		}
		shuffled, exShuffled := slices.Clone(ms), slices.Clone(exclusions)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		rng.Shuffle(len(exShuffled), func(i, j int) { exShuffled[i], exShuffled[j] = exShuffled[j], exShuffled[i] })
		for i := range exShuffled {
			if rng.IntN(2) == 0 {
				exShuffled[i] = [2]string{exShuffled[i][1], exShuffled[i][0]}
			}
		}
		got, err := Draw(shuffled, exShuffled, seeded(seed))
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("seed %d: order changed the draw: %v vs %v (%v)", seed, got, want, err)
		}
	}
}

// chiSquaredCritical is the chi-squared value a fair sampler exceeds with probability 0.001
// (Wilson-Hilferty approximation, within 1% for df >= 3).
func chiSquaredCritical(df int) float64 {
	const z = 3.0902 // the normal 99.9th percentile
	d := float64(df)
	return d * math.Pow(1-2/(9*d)+z*math.Sqrt(2/(9*d)), 3)
}

// checkUniform draws many times and asks whether the outcomes fit a uniform distribution over
// the want valid assignments.
func checkUniform(t *testing.T, draws int, want int, draw func() ([]Assignment, error)) {
	t.Helper()
	seen := map[string]int{}
	for range draws {
		got, err := draw()
		if err != nil {
			t.Fatal(err)
		}
		seen[fmt.Sprint(got)]++
	}
	if len(seen) != want {
		t.Fatalf("%d distinct assignments, want %d", len(seen), want)
	}
	expected := float64(draws) / float64(want)
	chi2 := 0.0
	for _, c := range seen {
		chi2 += (float64(c) - expected) * (float64(c) - expected) / expected
	}
	crit := chiSquaredCritical(want - 1)
	t.Logf("%d assignments, %d draws, chi-squared %.2f (critical %.2f at p=0.001)", want, draws, chi2, crit)
	if chi2 > crit {
		t.Fatalf("chi-squared %.2f > %.2f: not uniform; counts %v", chi2, crit, seen)
	}
}

func TestDrawFourWithoutExclusionsIsUniformOverTheNineDerangements(t *testing.T) {
	ms := family("Ann", "Ben", "Cleo", "Dan")
	src := seeded(2026)
	checkUniform(t, 90_000, 9, func() ([]Assignment, error) { return Draw(ms, nil, src) })
	// 26.12 is the textbook value for 8 degrees of freedom; the approximation must agree.
	if c := chiSquaredCritical(8); math.Abs(c-26.12) > 0.3 {
		t.Fatalf("critical value %.2f, want about 26.12", c)
	}
}

func TestDrawWithExclusionsIsUniform(t *testing.T) {
	ms := family("Ann", "Ben", "Cleo", "Dan", "Eve")
	exclusions := [][2]string{ex("Ann", "Ben"), ex("Dan", "Cleo")}
	count := int(ryser(ms, exclusions))
	src := seeded(7)
	checkUniform(t, 40*count*10, count, func() ([]Assignment, error) { return Draw(ms, exclusions, src) })
}

// The exact sampler only runs when rejection sampling is unlucky, so it is tested on its own.
func TestExactSamplerIsUniform(t *testing.T) {
	ms := family("Ann", "Ben", "Cleo", "Dan", "Eve")
	exclusions := [][2]string{ex("Ann", "Ben"), ex("Dan", "Cleo")}
	count := int(ryser(ms, exclusions))
	allowed := make([][]bool, len(ms))
	for g := range allowed {
		allowed[g] = make([]bool, len(ms))
		for r := range allowed[g] {
			allowed[g][r] = g != r
		}
	}
	allowed[0][1], allowed[1][0], allowed[3][2], allowed[2][3] = false, false, false, false
	u := uniform{r: seeded(11)}
	checkUniform(t, 40*count*10, count, func() ([]Assignment, error) {
		perm, err := u.exact(allowed)
		out := make([]Assignment, len(perm))
		for g, r := range perm {
			out[g] = Assignment{ms[g].UID, ms[r].UID}
		}
		if err == nil {
			checkValid(t, ms, exclusions, out)
		}
		return out, err
	})
}

// Valid draws that rejection sampling almost never finds: every member of one half must give
// to the other half. At 20 members the exact sampler finds them; above that we refuse openly.
func TestDrawRareValidAssignments(t *testing.T) {
	halves := func(n int) ([]Member, [][2]string) {
		ms := make([]Member, n)
		for i := range ms {
			ms[i] = Member{UID: fmt.Sprintf("u%02d", i)}
		}
		var exclusions [][2]string
		for i := range n {
			for j := i + 1; j < n; j++ {
				if i%2 == j%2 {
					exclusions = append(exclusions, [2]string{ms[i].UID, ms[j].UID})
				}
			}
		}
		return ms, exclusions
	}
	ms, exclusions := halves(20)
	start := time.Now()
	got, err := Draw(ms, exclusions, seeded(3))
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, ms, exclusions, got)
	t.Logf("20 members in two halves: %v", time.Since(start))

	ms, exclusions = halves(30)
	if _, err := Draw(ms, exclusions, seeded(3)); !errors.Is(err, ErrTooConstrained) {
		t.Fatalf("30 members in two halves: want ErrTooConstrained, got %v", err)
	}
}

func TestDrawFiftyMembersWithCouples(t *testing.T) {
	ms := make([]Member, 50)
	var exclusions [][2]string
	for i := range ms {
		ms[i] = Member{UID: fmt.Sprintf("u%02d", i)}
		if i%2 == 1 {
			exclusions = append(exclusions, [2]string{ms[i-1].UID, ms[i].UID})
		}
	}
	for seed := range uint64(20) {
		got, err := Draw(ms, exclusions, seeded(seed))
		if err != nil {
			t.Fatal(err)
		}
		checkValid(t, ms, exclusions, got)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("no entropy") }

func TestDrawReportsABrokenRandomSource(t *testing.T) {
	if _, err := Draw(family("Ann", "Ben", "Cleo"), nil, failingReader{}); err == nil || !strings.Contains(err.Error(), "no entropy") {
		t.Fatalf("want the source's error, got %v", err)
	}
}

// Production draws from crypto/rand.Reader.
func TestDrawWithCryptoRand(t *testing.T) {
	ms := family("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn")
	exclusions := [][2]string{ex("Ann", "Ben")}
	got, err := Draw(ms, exclusions, cryptorand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, ms, exclusions, got)
}
