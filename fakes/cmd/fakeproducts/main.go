// Command fakeproducts serves fake Open Food Facts, Open Products Facts and UPCitemdb APIs
// for the local stack and end-to-end tests (there is no internet here). It listens on
// FAKE_PRODUCTS_ADDR (default 127.0.0.1:8096); point the vision service at
// http://127.0.0.1:8096/openfoodfacts, /openproductsfacts and /upcitemdb. Tests steer it
// through /_fake/mode, /_fake/requests and /_fake/reset.
package main

import (
	"github.com/santa-wishlist/santa/fakes/products"
	"github.com/santa-wishlist/santa/fakes/server"
)

func main() {
	server.Run("fakeproducts", "FAKE_PRODUCTS_ADDR", "127.0.0.1:8096", products.New(true))
}
