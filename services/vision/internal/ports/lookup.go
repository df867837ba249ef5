package ports

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apierror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
	"github.com/santa-wishlist/santa/services/vision/internal/lookup"
)

// LookupCacheHeader says whether a lookup was answered from the cache (hit) or asked of the
// product databases (miss).
const LookupCacheHeader = "X-Lookup-Cache"

// Lookups are the product lookups the routes serve.
type Lookups struct {
	App      *app.Service
	Barcodes *lookup.Barcodes
}

// RegisterLookupRoutes adds:
//
//	POST /api/lookup/barcode  {code}: the product a barcode names (visitors too)
func RegisterLookupRoutes(r gin.IRouter, l Lookups) {
	g := r.Group("/api/lookup", auth.FromGatewayHeaders(false))
	g.POST("/barcode", l.barcode)
}

type barcodeRequest struct {
	Code string `json:"code"`
}

func (l Lookups) barcode(c *gin.Context) {
	var req barcodeRequest
	if !httpserver.DecodeJSON(c, &req, 4<<10) {
		return
	}
	code, err := lookup.ParseBarcode(req.Code)
	if err != nil {
		errCode := "invalid_barcode"
		if errors.Is(err, lookup.ErrCodeCheckDigit) {
			errCode = "invalid_check_digit"
		}
		apierror.AbortFields(c, http.StatusBadRequest, errCode, err.Error(), map[string]string{"code": err.Error()})
		return
	}
	who := caller(c)
	product, outcome, err := l.Barcodes.Lookup(c.Request.Context(), code, func(ctx context.Context) error {
		return l.App.TakeLookup(ctx, who)
	})
	if outcome != "" {
		c.Header(LookupCacheHeader, string(outcome))
	}
	switch {
	case err == nil:
		c.JSON(http.StatusOK, product)
	case errors.Is(err, lookup.ErrProductNotFound):
		apierror.Abort(c, http.StatusNotFound, "product_not_found", err.Error())
	case errors.Is(err, lookup.ErrLookupUnavailable):
		apierror.Abort(c, http.StatusServiceUnavailable, "lookup_unavailable", err.Error())
	default:
		lookupFail(c, err)
	}
}

// lookupFail answers the quota errors the AI routes share; the rest is our own trouble.
func lookupFail(c *gin.Context, err error) {
	var quota *app.QuotaExceeded
	if errors.As(err, &quota) || errors.Is(err, app.ErrQuotaUnavailable) || c.Request.Context().Err() != nil {
		(&HTTP{}).fail(c, err)
		return
	}
	httpserver.Logger(c).Error("lookup failed", "err", err)
	apierror.Abort(c, http.StatusInternalServerError, "internal", "Something went wrong on our side. Please try again.")
}
