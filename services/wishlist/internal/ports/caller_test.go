package ports

import (
	"testing"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// The verified user reaches the app unchanged, with the name others see, else "A friend".
func TestCallerIsTheVerifiedUserWithTheNameOthersSee(t *testing.T) {
	testenv.CallerShowsName(t, caller, "A friend")
}
