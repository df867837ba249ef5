package domain

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// allowedOf is the giver → receiver table of members (in uid order) under exclusions.
func allowedOf(t testing.TB, ms []Member, exclusions [][2]string) [][]bool {
	t.Helper()
	_, _, allowed, err := prepare(ms, exclusions)
	if err != nil {
		t.Fatal(err)
	}
	return allowed
}

// bruteSecret answers the question by enumerating every valid draw: for each participant p
// and each receiver q they can have, is some other participant's receiver the same in every
// valid draw where p gives to q?
func bruteSecret(allowed [][]bool) bool {
	n := len(allowed)
	var draws [][]int
	perm := make([]int, n)
	used := make([]bool, n)
	var walk func(g int)
	walk = func(g int) {
		if g == n {
			draws = append(draws, slices.Clone(perm))
			return
		}
		for r := range n {
			if !used[r] && allowed[g][r] {
				used[r], perm[g] = true, r
				walk(g + 1)
				used[r] = false
			}
		}
	}
	walk(0)
	if len(draws) == 0 {
		return false
	}
	for p := range n {
		for q := range n {
			receivers := make([]map[int]bool, n)
			for r := range receivers {
				receivers[r] = map[int]bool{}
			}
			found := false
			for _, d := range draws {
				if d[p] == q {
					found = true
					for r, s := range d {
						receivers[r][s] = true
					}
				}
			}
			if !found {
				continue
			}
			for r := range n {
				if r != p && len(receivers[r]) == 1 {
					return false
				}
			}
		}
	}
	return true
}

// ringOfFive excludes every pair of five but the neighbours on a circle: the only draws are
// the circle's two directions.
func ringOfFive() ([]Member, [][2]string) {
	ms := family("Ann", "Ben", "Cleo", "Dan", "Eve")
	return ms, [][2]string{ex("Ann", "Cleo"), ex("Ann", "Dan"), ex("Ben", "Dan"), ex("Ben", "Eve"), ex("Cleo", "Eve")}
}

func TestCheckSecretOnCraftedExclusions(t *testing.T) {
	ring, ringEx := ringOfFive()
	for _, tc := range []struct {
		name       string
		members    []Member
		exclusions [][2]string
		secret     bool
	}{
		{"the ring of five", ring, ringEx, false},
		{"the ring of five with one chord allowed again", ring, ringEx[1:], false},
		{"five, two couples", family("Ann", "Ben", "Cleo", "Dan", "Eve"), [][2]string{ex("Ann", "Ben"), ex("Cleo", "Dan")}, true},
		{"five, one exclusion", family("Ann", "Ben", "Cleo", "Dan", "Eve"), [][2]string{ex("Ann", "Ben")}, true},
		{"four, no exclusions", family("Ann", "Ben", "Cleo", "Dan"), nil, true},
		// Ann and Ben give to Cleo or Dan only: whoever Ann gives to, Ben gives to the other.
		{"four, one couple", family("Ann", "Ben", "Cleo", "Dan"), [][2]string{ex("Ann", "Ben")}, false},
		{"four, two couples: two draws, each the other's mirror", family("Ann", "Ben", "Cleo", "Dan"), [][2]string{ex("Ann", "Ben"), ex("Cleo", "Dan")}, false},
		{"six, three couples", family("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"), [][2]string{ex("Ann", "Ben"), ex("Cleo", "Dan"), ex("Eve", "Finn")}, true},
		{"six, Ann may only give to Ben, Cleo or Dan", family("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"),
			[][2]string{ex("Ann", "Eve"), ex("Ann", "Finn")}, true},
		// Ann receives from Ben or Cleo only: Ben giving to anyone else knows Cleo gives to Ann.
		{"six, Ann may only give to Ben or Cleo", family("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"),
			[][2]string{ex("Ann", "Dan"), ex("Ann", "Eve"), ex("Ann", "Finn")}, false},
		{"six, Ann may only give to Ben", family("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"),
			[][2]string{ex("Ann", "Cleo"), ex("Ann", "Dan"), ex("Ann", "Eve"), ex("Ann", "Finn")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			allowed := allowedOf(t, tc.members, tc.exclusions)
			if brute := bruteSecret(allowed); brute != tc.secret {
				t.Fatalf("brute force says secret=%v; the table is wrong", brute)
			}
			everyone, err := CheckSecret(tc.members, tc.exclusions)
			var notSecret *DrawNotSecretError
			switch {
			case everyone:
				t.Fatalf("everyoneCanDeduce for %d members", len(tc.members))
			case tc.secret && err != nil:
				t.Fatalf("refused a secret set: %v", err)
			case !tc.secret && !errors.As(err, &notSecret):
				t.Fatalf("want DrawNotSecretError, got %v", err)
			case !tc.secret:
				// What is kept after dropping must be secret.
				var kept [][2]string
				for i, e := range tc.exclusions {
					if !slices.Contains(notSecret.Drop, i) {
						kept = append(kept, e)
					}
				}
				if len(notSecret.Drop) == 0 || !bruteSecret(allowedOf(t, tc.members, kept)) {
					t.Fatalf("dropping %v leaves %v, which is not secret", notSecret.Drop, kept)
				}
			}
		})
	}
}

func TestTheRingOfFiveNamesTheExclusionsToDrop(t *testing.T) {
	ms, exclusions := ringOfFive()
	_, err := CheckSecret(ms, exclusions)
	var notSecret *DrawNotSecretError
	if !errors.As(err, &notSecret) {
		t.Fatalf("want DrawNotSecretError, got %v", err)
	}
	// Kept in order: Ann–Cleo stays; Ann–Dan would leave Ann's present to Ben or Eve, so
	// whichever of them gives elsewhere knows the other gives to Ann; Ben–Dan stays (two
	// couples among five are secret); Ben–Eve and Cleo–Eve go the way of Ann–Dan.
	if !slices.Equal(notSecret.Drop, []int{1, 3, 4}) {
		t.Fatalf("drop %v, want [1 3 4]", notSecret.Drop)
	}
	want := "These exclusions leave so few possible draws that someone could work out another person's match from their own: drop Ann–Dan, Ben–Eve and Cleo–Eve"
	if notSecret.Message != want {
		t.Fatalf("message %q\nwant    %q", notSecret.Message, want)
	}
}

func TestSmallDrawsCannotBeSecret(t *testing.T) {
	for _, tc := range []struct {
		members  []Member
		everyone bool
	}{
		{family("Ann", "Ben"), true},
		{family("Ann", "Ben", "Cleo"), true},
		{family("Ann", "Ben", "Cleo", "Dan"), false},
	} {
		everyone, err := CheckSecret(tc.members, nil)
		if err != nil || everyone != tc.everyone {
			t.Fatalf("%d members: everyoneCanDeduce %v, %v; want %v", len(tc.members), everyone, err, tc.everyone)
		}
	}
	// What Draw refuses, the check refuses the same way.
	var impossible *DrawImpossibleError
	if _, err := CheckSecret(family("Ann", "Ben", "Cleo"), [][2]string{ex("Ann", "Ben")}); !errors.As(err, &impossible) {
		t.Fatalf("three with a couple: want DrawImpossibleError, got %v", err)
	}
	var input *DrawInputError
	if _, err := CheckSecret(family("Ann", "Ben", "Cleo", "Dan"), [][2]string{ex("Ann", "Zed")}); !errors.As(err, &input) {
		t.Fatalf("a stranger: want DrawInputError, got %v", err)
	}
}

// The fast check agrees with brute force on many random families of 4 to 7.
func TestCheckSecretAgreesWithBruteForce(t *testing.T) {
	rng := rand.New(seeded(25))
	counts := map[string]int{}
	for trial := range 3000 {
		n := 4 + trial%4
		ms := make([]Member, n)
		for i := range ms {
			ms[i] = Member{UID: fmt.Sprintf("u%d", i), DisplayName: fmt.Sprintf("P%d", i)}
		}
		density := []float64{0.1, 0.25, 0.4, 0.55}[trial/4%4]
		var exclusions [][2]string
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < density {
					exclusions = append(exclusions, [2]string{ms[i].UID, ms[j].UID})
				}
			}
		}
		_, _, allowed, err := prepare(ms, exclusions)
		if err != nil {
			counts["impossible"]++
			continue
		}
		brute, fast := bruteSecret(allowed), isSecret(allowed)
		if brute != fast {
			t.Fatalf("n=%d exclusions %v: brute force says secret=%v, the check %v", n, exclusions, brute, fast)
		}
		counts[fmt.Sprint("secret=", fast)]++
		if !fast {
			_, err := CheckSecret(ms, exclusions)
			var notSecret *DrawNotSecretError
			if !errors.As(err, &notSecret) {
				t.Fatalf("CheckSecret: %v", err)
			}
		}
	}
	t.Logf("outcomes %v", counts)
	if counts["secret=true"] < 300 || counts["secret=false"] < 300 {
		t.Fatalf("the random families did not exercise both outcomes: %v", counts)
	}
}

func fifty(couples bool) ([]Member, [][2]string) {
	ms := make([]Member, 50)
	var exclusions [][2]string
	for i := range ms {
		ms[i] = Member{UID: fmt.Sprintf("u%02d", i)}
		if couples && i%2 == 1 {
			exclusions = append(exclusions, [2]string{ms[i-1].UID, ms[i].UID})
		}
	}
	return ms, exclusions
}

func TestFiftyMembersAreSecret(t *testing.T) {
	for _, couples := range []bool{false, true} {
		ms, exclusions := fifty(couples)
		if everyone, err := CheckSecret(ms, exclusions); everyone || err != nil {
			t.Fatalf("couples=%v: %v, %v", couples, everyone, err)
		}
	}
}

// go test -run x -bench CheckSecret ./services/family/internal/domain/
func BenchmarkCheckSecretFiftyMembers(b *testing.B) {
	for _, couples := range []bool{false, true} {
		ms, exclusions := fifty(couples)
		b.Run(fmt.Sprintf("couples=%v", couples), func(b *testing.B) {
			for b.Loop() {
				if _, err := CheckSecret(ms, exclusions); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestNormalExclusions(t *testing.T) {
	got := NormalExclusions([][2]string{{"ben", "ann"}, {"cleo", "dan"}, {"ann", "ben"}})
	if fmt.Sprint(got) != "[[ann ben] [cleo dan]]" {
		t.Fatalf("%v", got)
	}
	if got := NormalExclusions(nil); got == nil || len(got) != 0 {
		t.Fatalf("%#v, want an empty list", got)
	}
}
