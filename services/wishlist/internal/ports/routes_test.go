package ports_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
	"github.com/santa-wishlist/santa/services/wishlist/internal/ports"
)

// Register's routes are generated from the spec; registered on a group of the caller check
// and the ETag, they must still be exactly the paths api/openapi.yaml gives the wishlist.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.Register(r, nil, nil, nil)
	testenv.RoutesMatchSpec(t, r, "wishlist")
}

// An item's fields as the domain reads and answers them are the OpenAPI spec's
// (api/openapi.yaml), both ways: a field added on one side alone fails here.
func TestItemFieldsAreTheSpecs(t *testing.T) {
	// The list answers add the claim summaries to each item (adapters' projections).
	testenv.SchemaFieldsMatch(t, "Item", domain.Item{}, "claims", "claimed", "mine")
	// userId is documented as accepted and ignored: the verified caller owns the item.
	testenv.SchemaFieldsMatch(t, "ItemDraft", domain.Draft{}, "userId")
}
