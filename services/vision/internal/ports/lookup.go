package ports

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// Lookups are the product lookups the routes serve.
type Lookups struct {
	App      *app.Service
	Barcodes *app.Barcodes
	Links    *app.Links
	Images   *app.ProductImages
	// Photos signs the stored pictures' addresses in the answers (nil without media, when no
	// picture is ever stored).
	Photos *mediaurl.Signer
}

// signed is a stored picture's address as the browser may load it: signed at
// answer time, as the cache keeps the plain address longer than a signature lives.
func (l Lookups) signed(u string) string {
	if l.Photos == nil {
		return u
	}
	return l.Photos.At(time.Now()).Sign(u)
}

// LookupUrl answers POST /api/lookup/url {url}: a wishlist item filled from a shop's page.
func (l Lookups) LookupUrl(c *gin.Context) {
	var req LookupUrlJSONRequestBody
	if !httpserver.DecodeJSON(c, &req, 8<<10) {
		return
	}
	who := caller(c)
	// What the link alone refuses costs no quota and makes no connection.
	u, err := l.Links.CheckURL(req.Url)
	if err == nil {
		err = l.App.TakeLookup(c.Request.Context(), who)
	}
	var item domain.LinkItem
	if err == nil {
		item, err = l.Links.Import(c.Request.Context(), who, u)
	}
	var (
		refused *domain.RefusedError
		failed  *domain.FetchError
	)
	switch {
	case err == nil:
		item.ImageURL = l.signed(item.ImageURL)
		c.JSON(http.StatusOK, item)
	case errors.As(err, &refused):
		status := http.StatusBadRequest
		if refused.Code == "no_product_on_page" || refused.Code == "not_a_page" || refused.Code == "too_many_redirects" {
			status = http.StatusUnprocessableEntity
		}
		httpserver.AbortFields(c, status, refused.Code, refused.Message, map[string]string{"url": refused.Message})
	case errors.As(err, &failed):
		status := http.StatusBadGateway
		if failed.Timeout {
			status = http.StatusGatewayTimeout
		}
		httpserver.Logger(c).Info("shop page not fetched", "status", failed.Status, "detail", failed.Detail)
		httpserver.Abort(c, status, "page_unavailable", failed.Error())
	default:
		lookupFail(c, err)
	}
}

// parseBarcode checks a body's code, answering the 400 itself when it is wrong.
func parseBarcode(c *gin.Context, raw string) (domain.Barcode, bool) {
	code, err := domain.ParseBarcode(raw)
	if err != nil {
		errCode := "invalid_barcode"
		if errors.Is(err, domain.ErrCodeCheckDigit) {
			errCode = "invalid_check_digit"
		}
		httpserver.AbortFields(c, http.StatusBadRequest, errCode, err.Error(), map[string]string{"code": err.Error()})
		return domain.Barcode{}, false
	}
	return code, true
}

// barcodeBodyLimit is what a {code} body may weigh.
const barcodeBodyLimit = 4 << 10

type imageAnswer struct {
	ImageURL string `json:"imageUrl"`
}

// LookupBarcodeImage answers POST /api/lookup/barcode/image {code}: the product's picture
// stored as the caller's.
func (l Lookups) LookupBarcodeImage(c *gin.Context) {
	var req LookupBarcodeImageJSONRequestBody
	if !httpserver.DecodeJSON(c, &req, barcodeBodyLimit) {
		return
	}
	code, ok := parseBarcode(c, req.Code)
	if !ok {
		return
	}
	who := caller(c)
	stored, err := l.Images.Store(c.Request.Context(), who, code, func(ctx context.Context) error {
		return l.App.TakeLookup(ctx, who)
	})
	switch {
	case err == nil:
		c.JSON(http.StatusCreated, imageAnswer{ImageURL: l.signed(stored)})
	case errors.Is(err, domain.ErrProductNotFound):
		httpserver.Abort(c, http.StatusNotFound, "product_not_found", err.Error())
	case errors.Is(err, domain.ErrNoProductImage):
		httpserver.Abort(c, http.StatusNotFound, "no_product_image", err.Error())
	case errors.Is(err, domain.ErrProductImageUnavailable):
		httpserver.Abort(c, http.StatusBadGateway, "image_unavailable", err.Error())
	case errors.Is(err, domain.ErrLookupUnavailable):
		httpserver.Abort(c, http.StatusServiceUnavailable, "lookup_unavailable", err.Error())
	default:
		lookupFail(c, err)
	}
}

// LookupBarcode answers POST /api/lookup/barcode {code}: the product a barcode names.
func (l Lookups) LookupBarcode(c *gin.Context) {
	var req LookupBarcodeJSONRequestBody
	if !httpserver.DecodeJSON(c, &req, barcodeBodyLimit) {
		return
	}
	code, ok := parseBarcode(c, req.Code)
	if !ok {
		return
	}
	var err error
	who := caller(c)
	// Whether the answer came from the cache is not said: the cache is shared, so a hit would
	// tell anyone that somebody looked the code up before.
	product, _, err := l.Barcodes.Lookup(c.Request.Context(), code, func(ctx context.Context) error {
		return l.App.TakeLookup(ctx, who)
	})
	switch {
	case err == nil:
		c.JSON(http.StatusOK, product)
	case errors.Is(err, domain.ErrProductNotFound):
		httpserver.Abort(c, http.StatusNotFound, "product_not_found", err.Error())
	case errors.Is(err, domain.ErrLookupUnavailable):
		httpserver.Abort(c, http.StatusServiceUnavailable, "lookup_unavailable", err.Error())
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
	httpserver.Abort(c, http.StatusInternalServerError, "internal", "Something went wrong on our side. Please try again.")
}
