package domain

import (
	"errors"
	"fmt"
	"net/url"
)

// The product lookup turns what a shopper has at hand into a wishlist product: a scanned
// barcode (looked up in public product databases) or a shop's page (read with an SSRF-safe
// fetcher). Its rules and types are here (barcode.go, category.go, page.go, product.go), its
// use cases in app (Barcodes, Links, ProductImages), its HTTP clients in adapters (Upstream,
// Fetcher).

// LinkItem is a wishlist item filled from a shop's page.
type LinkItem struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Category    string `json:"category"`
	Price       string `json:"price"`
	Currency    string `json:"currency"`
	// ImageURL is our own copy of the shop's picture (empty if it had none or it could not
	// be stored); ImageError says why it is missing when it should have been there.
	ImageURL    string `json:"imageUrl"`
	ImageError  string `json:"imageError,omitempty"`
	ShoppingURL string `json:"shoppingUrl"`
	Source      string `json:"source"`
}

// ErrNothingOnPage: the page names no product at all (no data, no title).
var ErrNothingOnPage = &RefusedError{Code: "no_product_on_page",
	Message: "We could not read a product from this page. Please fill in the item by hand."}

// ErrProductNotFound: no database knows the code.
var ErrProductNotFound = errors.New("We could not find this product. You can still add it by hand.")

// ErrLookupUnavailable: every database failed, so we cannot say the code is unknown.
var ErrLookupUnavailable = errors.New("The product databases are not answering right now. Please try again shortly, or add the item by hand.")

// ErrNoProductImage: the product is known but no database has a picture of it.
var ErrNoProductImage = errors.New("No picture of this product is known. You can add a photo yourself.")

// ErrProductImageUnavailable: the database's picture could not be fetched or stored.
var ErrProductImageUnavailable = errors.New("The product's picture could not be imported right now; you can add a photo yourself.")

// RefusedError is a URL the fetcher will not reach; the message is shown to the user.
type RefusedError struct {
	Code, Message string
}

func (e *RefusedError) Error() string { return e.Message }

// FetchError is a page that could not be fetched (the shop's fault or the network's).
type FetchError struct {
	Status  int // the shop's HTTP status, 0 if none
	Timeout bool
	Detail  string
}

func (e *FetchError) Error() string {
	switch {
	case e.Timeout:
		return "The shop's page did not load in time. Please try again or fill in the item by hand."
	case e.Status != 0:
		return fmt.Sprintf("The shop answered with an error (%d). Please check the link or fill in the item by hand.", e.Status)
	default:
		return "The shop's page could not be loaded. Please check the link or fill in the item by hand."
	}
}

// Page is a fetched page.
type Page struct {
	URL         *url.URL // after redirects
	ContentType string
	Body        []byte
	Truncated   bool
}
