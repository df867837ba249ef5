package ports_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
	"github.com/santa-wishlist/santa/services/wishlist/internal/ports"
)

// The wishlist's public routes are the paths api/openapi.yaml gives it (the gateway forwards
// them unchanged): one added on either side alone fails here.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.Routes(r, nil, nil)
	ports.AccountRoutes(r, nil)
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
